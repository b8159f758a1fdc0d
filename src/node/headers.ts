/**
 * An answer's headers as the WHATWG `Headers` every sender returns (`lastResponse.headers`, an
 * ApiError's headers), filled from node:http's raw list on first use. Filling a `Headers` checks
 * and appends each header, ~2 µs per answer, and a successful call usually never reads them
 * (docs/performance.md, "0.4: per-call cost"); every method that reads or changes the headers
 * fills them first, so nothing can tell it from a `Headers` built at once.
 *
 * The class is made with the first answer: reading the global `Headers` loads undici, and with it
 * node:http, node:https's TLS and node:zlib, which importing the package must not (cold start).
 */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

type Inspect = (this: Headers, ...args: unknown[]) => unknown;

const defineRawHeaders = () =>
  class RawHeaders extends Headers {
    /** name, value, name, value… as node:http received them; undefined once filled. */
    #raw: readonly string[] | undefined;

    constructor(raw: readonly string[]) {
      super();
      this.#raw = raw;
    }

    #fill(): void {
      const raw = this.#raw;
      if (raw === undefined) return;
      this.#raw = undefined;
      for (let i = 0; i + 1 < raw.length; i += 2) super.append(raw[i] as string, raw[i + 1] as string);
    }

    override append(name: string, value: string): void {
      this.#fill();
      super.append(name, value);
    }

    override delete(name: string): void {
      this.#fill();
      super.delete(name);
    }

    override get(name: string): string | null {
      this.#fill();
      return super.get(name);
    }

    override has(name: string): boolean {
      this.#fill();
      return super.has(name);
    }

    override set(name: string, value: string): void {
      this.#fill();
      super.set(name, value);
    }

    override getSetCookie(): string[] {
      this.#fill();
      return super.getSetCookie();
    }

    override keys(): HeadersIterator<string> {
      this.#fill();
      return super.keys();
    }

    override values(): HeadersIterator<string> {
      this.#fill();
      return super.values();
    }

    override entries(): HeadersIterator<[string, string]> {
      this.#fill();
      return super.entries();
    }

    override forEach(
      callback: (value: string, key: string, parent: Headers) => void,
      thisArg?: unknown,
    ): void {
      this.#fill();
      super.forEach(callback, thisArg);
    }

    override [Symbol.iterator](): HeadersIterator<[string, string]> {
      this.#fill();
      return super[Symbol.iterator]();
    }

    /** util.inspect / console.log show the headers, as they do a filled Headers. */
    [INSPECT](...args: unknown[]): unknown {
      this.#fill();
      const inspect = (Headers.prototype as unknown as Record<symbol, Inspect | undefined>)[INSPECT];
      // Returning the object itself makes util.inspect format it as it would without this method.
      return inspect ? inspect.apply(this, args) : this;
    }
  };

let RawHeaders: ReturnType<typeof defineRawHeaders> | undefined;

/** The headers of an answer from node:http's `rawHeaders` (name, value, name, value…). */
export function headersOf(raw: readonly string[]): Headers {
  RawHeaders ??= defineRawHeaders();
  return new RawHeaders(raw);
}
