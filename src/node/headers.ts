/**
 * An answer's headers as the WHATWG `Headers` every sender returns (`lastResponse.headers`, an
 * ApiError's headers), filled from node:http's raw list on first use. Filling a `Headers` checks
 * and appends each header, ~2 µs per answer, and a successful call usually never reads them
 * (docs/performance.md, "0.4: per-call cost"); every method that reads or changes the headers
 * fills them first (iteration and `util.inspect` too), so nothing can tell it from a `Headers`
 * built at once.
 *
 * The class is made with the first answer: reading the global `Headers` loads undici, and with it
 * node:http, node:https's TLS and node:zlib, which importing the package must not (cold start).
 */

const METHODS = [
  'append',
  'delete',
  'get',
  'has',
  'set',
  'getSetCookie',
  'keys',
  'values',
  'entries',
  'forEach',
  Symbol.iterator,
  Symbol.for('nodejs.util.inspect.custom'),
] as const;

type Method = (this: Headers, ...args: unknown[]) => unknown;

type RawHeadersClass = new (raw: readonly string[]) => Headers;

function defineRawHeaders(): RawHeadersClass {
  class RawHeaders extends Headers {
    /**
     * name, value, name, value… as node:http received them, until the headers are filled. A
     * private field, not a WeakMap entry (~0.2 µs per answer), and as invisible to the caller.
     */
    #raw: readonly string[] | undefined;

    constructor(raw: readonly string[]) {
      super();
      this.#raw = raw;
    }

    static fill(headers: Headers): void {
      if (!(#raw in headers)) return;
      const raw = headers.#raw;
      if (raw === undefined) return;
      headers.#raw = undefined;
      const append = Headers.prototype.append;
      for (let i = 0; i + 1 < raw.length; i += 2)
        append.call(headers, raw[i] as string, raw[i + 1] as string);
    }
  }
  const own = Headers.prototype as unknown as Record<PropertyKey, Method | undefined>;
  for (const key of METHODS) {
    const method = own[key];
    if (typeof method !== 'function') continue;
    Object.defineProperty(RawHeaders.prototype, key, {
      value: function (this: Headers, ...args: unknown[]) {
        RawHeaders.fill(this);
        return method.apply(this, args);
      },
      writable: true,
      configurable: true,
    });
  }
  return RawHeaders;
}

let RawHeaders: RawHeadersClass | undefined;

/** The headers of an answer from node:http's `rawHeaders` (name, value, name, value…). */
export function headersOf(raw: readonly string[]): Headers {
  RawHeaders ??= defineRawHeaders();
  return new RawHeaders(raw);
}

/**
 * The answer's Content-Encoding as node:http's `headers` would give it (repeated ones joined by
 * ', '), read from the raw list: reading `incoming.headers` builds that whole object (~1 µs).
 */
export function contentEncoding(raw: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i] as string;
    if (name.length !== 16 || name.toLowerCase() !== 'content-encoding') continue;
    value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
  }
  return value;
}
