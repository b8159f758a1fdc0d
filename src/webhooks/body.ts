/**
 * Reading a delivery's body from a stream without Node built-ins: at most `max` bytes are ever
 * buffered, and a body announced or found larger is given up on (the handler answers 413).
 */

/** Reads a stream up to `max` bytes; undefined as soon as it is over (a huge body is never buffered). */
export async function readLimited(
  stream: AsyncIterable<Uint8Array | string>,
  contentLength: string | null | undefined,
  max: number,
): Promise<Uint8Array | undefined> {
  if (contentLength && Number(contentLength) > max) return undefined;
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
    total += bytes.byteLength;
    if (total > max) return undefined;
    chunks.push(bytes);
  }
  return concat(chunks, total);
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
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
