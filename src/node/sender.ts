/**
 * The Node sender: `node:http`/`node:https` over keep-alive agents. On Node, `fetch` (undici's
 * WHATWG Request/Response/stream machinery) costs four times the CPU of `node:http` per call
 * (node_modules/payinout/docs/performance.md or https://github.com/payinout/payinout/blob/main/docs/performance.md, "Client CPU under load"), which is most of a client's cost at high
 * concurrency; this sender does the same job — send, read the whole body under the deadline,
 * never follow a redirect — without it. Loaded only by the Node entry, so no other runtime sees
 * a `node:` import.
 */
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { Duplex, Readable, Transform } from 'node:stream';
import { whenAborted } from '../core/abort.js';
import { MAX_ANSWER_BYTES } from '../core/limits.js';
import {
  answerTooLarge,
  mayWrite,
  type Sender,
  WireFailure,
  type WireRequest,
  type WireResponse,
} from '../core/sender.js';
import { contentEncoding, headersOf } from './headers.js';
import { agentFor, builtin, watchExchange } from './keep-alive.js';
import { aimAt } from './target.js';

export const nodeSender: Sender = (request) =>
  new Promise<WireResponse>((resolve, reject) => {
    if (request.signal?.aborted) return reject(request.signal.reason);
    new Attempt(request, resolve, reject).start();
  });

/**
 * One request on its way: settles its promise exactly once, with the answer read whole, the
 * deadline, the caller's abort or the failure. A class rather than closures over locals: its
 * per-call state is one object, and its handlers are methods (the listeners are one-line arrows).
 */
class Attempt {
  /** Set once the response headers arrived: a later failure is reported with it. */
  #status: number | undefined;
  #outgoing: ClientRequest | undefined;
  #settled = false;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #stopListening: (() => void) | undefined;

  constructor(
    readonly request: WireRequest,
    readonly resolve: (response: WireResponse) => void,
    readonly reject: (error: unknown) => void,
  ) {
    this.#timer = setTimeout(() => this.#settle(new WireFailure(true, this.#status)), request.timeoutMs);
    const { signal } = request;
    this.#stopListening = signal && whenAborted(signal, () => this.#settle(signal.reason));
  }

  start(): void {
    try {
      const outgoing = send(
        this.request,
        (error) => this.#settle(error),
        (incoming) => this.#answered(incoming),
      );
      this.#outgoing = outgoing;
      outgoing.on('error', (error) => this.#fail(error));
      // Without a listener node:http destroys the socket of a 101 answer and the request never
      // settles: fail at once, as fetch does, with nothing of the answer read.
      outgoing.on('upgrade', (_incoming, socket: Duplex) => {
        socket.destroy();
        this.#fail(switchedProtocols());
      });
    } catch (error) {
      // Refused before anything was written (an invalid header value or URL).
      this.#settle(error);
    }
  }

  #settle(error: unknown, response?: WireResponse): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.#stopListening?.();
    if (response) this.resolve(response);
    else {
      this.reject(error);
      this.#outgoing?.destroy();
    }
  }

  /** A failure once the status is known is reported with it: a 2xx whose body was cut means the service accepted the call. */
  #fail(error: unknown): void {
    this.#settle(this.#status === undefined ? error : new WireFailure(false, this.#status, error));
  }

  #answered(incoming: IncomingMessage): void {
    // node:http hands on a 101 without `Upgrade` as an answer (other 1xx it skips): it is not
    // one, and must not read as a success below 300 (a create "accepted").
    if (incoming.statusCode === 101) {
      this.#fail(switchedProtocols());
      return;
    }
    this.#status = incoming.statusCode;
    incoming.on('error', (error) => this.#fail(error));
    const decoder = decoderFor(contentEncoding(incoming.rawHeaders));
    if (!decoder) {
      incoming.on('data', (chunk: Buffer) => this.#take(incoming, chunk));
      incoming.on('end', () => this.#finish(incoming));
      return;
    }
    // Made with the first byte: an empty body is empty whatever its Content-Encoding (fetch reads
    // it so), where a decoder fed nothing fails ("unexpected end of file").
    let decoding = false;
    incoming.once('data', (first: Buffer) => {
      decoding = true;
      const body = decoder();
      body.on('data', (chunk: Buffer) => this.#take(body, chunk));
      body.on('end', () => this.#finish(incoming));
      body.on('error', (error) => this.#fail(error));
      body.write(first);
      incoming.pipe(body);
    });
    incoming.once('end', () => decoding || this.#finish(incoming));
  }

  /** A chunk of the body (decoded, if it was compressed), at most MAX_ANSWER_BYTES in all. */
  #take(source: Readable, chunk: Buffer): void {
    this.#bytes += chunk.length;
    if (this.#bytes > MAX_ANSWER_BYTES) {
      source.destroy();
      this.#fail(answerTooLarge());
      return;
    }
    this.#chunks.push(chunk);
  }

  /** Decoded once at the end, so a character split across chunks stays whole. */
  #finish(incoming: IncomingMessage): void {
    if (this.#settled) return;
    try {
      // An answer that came in one chunk (the usual case) is decoded where it lies, not copied first.
      const chunks = this.#chunks;
      const whole = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#bytes);
      const text = whole.toString('utf8');
      const headers = headersOf(incoming.rawHeaders);
      this.#settle(undefined, { status: incoming.statusCode ?? 0, headers, text });
    } catch (failure) {
      this.#fail(failure);
    }
  }
}

function send(
  request: WireRequest,
  refuse: (error: unknown) => void,
  onResponse: (incoming: IncomingMessage) => void,
): ClientRequest {
  const secure = request.url.startsWith('https:');
  const http = builtin(secure ? 'https' : 'http');
  const options: RequestOptions = {
    method: request.method,
    headers: headersFor(request),
    agent: agentFor(secure),
  };
  const outgoing = aimAt(options, request.url)
    ? http.request(options, onResponse)
    : http.request(request.url, options, onResponse);
  // Given before the request is written (node:http flushes it after this event): every byte the
  // connection receives from here on is accounted to this exchange (keep-alive.ts).
  outgoing.on('socket', watchExchange);
  if (!request.beforeWrite) outgoing.end(request.body);
  else writeWhenConnected(outgoing, secure, () => mayWrite(request, refuse) && outgoing.end(request.body));
  return outgoing;
}

/**
 * The headers to send. The body's length is node:http's to write: it sets Content-Length from a
 * body written whole by `end()`, as every body here is, so the headers are passed as they are,
 * not copied per request. Only a call that names its own Content-Length (the names are lower-case:
 * http.ts builds them so) has it replaced by the body's, as it always was.
 */
function headersFor(request: WireRequest): WireRequest['headers'] {
  const { headers, body } = request;
  if (body === undefined || !Object.hasOwn(headers, 'content-length')) return headers;
  return { ...headers, 'content-length': String(Buffer.byteLength(body)) };
}

/**
 * Calls `write` once the request's socket is connected (TLS: handshaken), so that nothing —
 * connecting included — lies between a `beforeWrite` check and the bytes leaving: node:http
 * writes nothing before `end()`, and `end()` on a connected socket writes at once.
 */
function writeWhenConnected(outgoing: ClientRequest, secure: boolean, write: () => unknown): void {
  outgoing.once('socket', (socket) => {
    if (!socket.connecting) return void write();
    socket.once(secure ? 'secureConnect' : 'connect', write);
  });
}

/** node:zlib, loaded with the first compressed answer, not with the package. */
function zlib(): typeof import('node:zlib') {
  return process.getBuiltinModule('node:zlib');
}

/** The decoder of a body a server compressed unasked (fetch decodes it too). */
function decoderFor(contentEncoding: string | undefined): (() => Transform) | undefined {
  const encoding = contentEncoding?.trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return () => zlib().createGunzip();
  if (encoding === 'deflate') return () => zlib().createInflate();
  if (encoding === 'br') return () => zlib().createBrotliDecompress();
  return undefined;
}

/** A 101 answer to a request that asked for no other protocol. */
function switchedProtocols(): Error {
  return Object.assign(new Error('the server switched protocols (HTTP 101), which no call asks for'), {
    code: 'ERR_UNEXPECTED_UPGRADE',
  });
}
