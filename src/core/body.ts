/**
 * The one capped body reader, without Node built-ins: at most `max` bytes are ever buffered,
 * whoever reads (an answer on the fetch sender, a webhook delivery, a request to the simulator).
 * What is over the cap is given up on, or drained unread when the reader must still answer it
 * (the simulator's 413).
 */

const ENCODER = new TextEncoder();

/** How {@link readCapped} treats a body over its cap. */
export interface CapOptions {
  /** A Content-Length already above the cap: given up on before a byte is read. */
  declaredLength?: string | number | null | undefined;
  /**
   * Keep consuming (without buffering) past the cap, so the sender gets an answer rather than a
   * reset. Default false: stop at once; the stream is released.
   */
  drain?: boolean;
}

/**
 * Bytes kept under a cap as they arrive, whoever drives the stream: {@link readCapped}'s loop, or
 * a reader on 'data' events where an async iterator would cost per request (the simulator).
 */
export class CappedBytes {
  readonly #max: number;
  readonly #chunks: Uint8Array[] = [];
  #total = 0;
  constructor(max: number) {
    this.#max = max;
  }

  /** Keeps a chunk; false once the body is over the cap (nothing is kept from then on). */
  add(chunk: Uint8Array | string): boolean {
    const bytes = typeof chunk === 'string' ? ENCODER.encode(chunk) : chunk;
    this.#total += bytes.byteLength;
    if (this.#total > this.#max) return false;
    this.#chunks.push(bytes);
    return true;
  }

  /** The whole body, or undefined when it went over the cap. */
  bytes(): Uint8Array | undefined {
    if (this.#total > this.#max) return undefined;
    if (this.#chunks.length === 1) return this.#chunks[0];
    const out = new Uint8Array(this.#total);
    let offset = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, offset);
      offset += chunk.byteLength;
    }
    return out;
  }
}

/** The body's bytes, or undefined when it is over `max` (a huge body is never buffered). */
export async function readCapped(
  stream: AsyncIterable<Uint8Array | string>,
  max: number,
  options: CapOptions = {},
): Promise<Uint8Array | undefined> {
  const declared = options.declaredLength;
  if (declared !== undefined && declared !== null && declared !== '' && Number(declared) > max) {
    return undefined;
  }
  const body = new CappedBytes(max);
  for await (const chunk of stream) {
    if (!body.add(chunk) && !options.drain) return undefined;
  }
  return body.bytes();
}

export async function* emptyStream(): AsyncIterable<Uint8Array> {}

/** A web ReadableStream as an async iterable, via its reader (portable to runtimes without stream iteration). */
export async function* chunksOf(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}
