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

/** name, value, name, value… as node:http received them, until the headers are filled. */
const unfilled = new WeakMap<Headers, readonly string[]>();

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

function fill(headers: Headers): void {
  const raw = unfilled.get(headers);
  if (raw === undefined) return;
  unfilled.delete(headers);
  const append = Headers.prototype.append;
  for (let i = 0; i + 1 < raw.length; i += 2) append.call(headers, raw[i] as string, raw[i + 1] as string);
}

function defineRawHeaders(): typeof Headers {
  class RawHeaders extends Headers {}
  const own = Headers.prototype as unknown as Record<PropertyKey, Method | undefined>;
  for (const key of METHODS) {
    const method = own[key];
    if (typeof method !== 'function') continue;
    Object.defineProperty(RawHeaders.prototype, key, {
      value: function (this: Headers, ...args: unknown[]) {
        fill(this);
        return method.apply(this, args);
      },
      writable: true,
      configurable: true,
    });
  }
  return RawHeaders;
}

let RawHeaders: typeof Headers | undefined;

/** The headers of an answer from node:http's `rawHeaders` (name, value, name, value…). */
export function headersOf(raw: readonly string[]): Headers {
  RawHeaders ??= defineRawHeaders();
  const headers = new RawHeaders();
  unfilled.set(headers, raw);
  return headers;
}
