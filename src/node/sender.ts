/**
 * The Node sender: `node:http`/`node:https` over keep-alive agents. On Node, `fetch` (undici's
 * WHATWG Request/Response/stream machinery) costs four times the CPU of `node:http` per call
 * (node_modules/payinout/docs/performance.md or https://github.com/payinout/payinout/blob/main/docs/performance.md, "Client CPU under load"), which is most of a client's cost at high
 * concurrency; this sender does the same job — send, read the whole body under the deadline,
 * never follow a redirect — without it. Loaded only by the Node entry, so no other runtime sees
 * a `node:` import.
 */
import type { ClientRequest, IncomingMessage } from 'node:http';
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
import { agentFor, builtin, watchExchange } from './keep-alive.js';

export const nodeSender: Sender = (request) =>
  new Promise<WireResponse>((resolve, reject) => {
    const { signal } = request;
    if (signal?.aborted) return reject(signal.reason);
    let status: number | undefined;
    let outgoing: ClientRequest | undefined;
    let settled = false;
    const settle = (error: unknown, response?: WireResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stopListening?.();
      if (response) resolve(response);
      else {
        reject(error);
        outgoing?.destroy();
      }
    };
    const onAbort = () => settle(signal?.reason);
    const timer = setTimeout(() => settle(new WireFailure(true, status)), request.timeoutMs);
    // A failure once the status is known is reported with it: a 2xx whose body was cut means the
    // service accepted the call.
    const fail = (error: unknown) =>
      settle(status === undefined ? error : new WireFailure(false, status, error));
    const stopListening = signal && whenAborted(signal, onAbort);
    try {
      outgoing = send(request, settle, (incoming) => {
        // node:http hands on a 101 without `Upgrade` as an answer (other 1xx it skips): it is not
        // one, and must not read as a success below 300 (a create "accepted").
        if (incoming.statusCode === 101) return fail(switchedProtocols());
        status = incoming.statusCode;
        incoming.on('error', fail);
        readText(incoming, (error, text) => {
          if (error) return fail(error);
          try {
            settle(undefined, { status: incoming.statusCode ?? 0, headers: headersOf(incoming), text });
          } catch (failure) {
            fail(failure);
          }
        });
      });
      outgoing.on('error', fail);
      // Without a listener node:http destroys the socket of a 101 answer and the request never
      // settles: fail at once, as fetch does, with nothing of the answer read.
      outgoing.on('upgrade', (_incoming, socket: Duplex) => {
        socket.destroy();
        fail(switchedProtocols());
      });
    } catch (error) {
      // Refused before anything was written (an invalid header value or URL).
      settle(error);
    }
  });

function send(
  request: WireRequest,
  refuse: (error: unknown) => void,
  onResponse: (incoming: IncomingMessage) => void,
): ClientRequest {
  const secure = request.url.startsWith('https:');
  const headers =
    request.body === undefined
      ? request.headers
      : { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) };
  const options = { method: request.method, headers, agent: agentFor(secure) };
  const outgoing = builtin(secure ? 'https' : 'http').request(request.url, options, onResponse);
  // Given before the request is written (node:http flushes it after this event): every byte the
  // connection receives from here on is accounted to this exchange (keep-alive.ts).
  outgoing.once('socket', watchExchange);
  if (!request.beforeWrite) outgoing.end(request.body);
  else writeWhenConnected(outgoing, secure, () => mayWrite(request, refuse) && outgoing.end(request.body));
  return outgoing;
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

/**
 * The whole body as text, decompressed if a server compressed it unasked (fetch does the same),
 * at most MAX_ANSWER_BYTES once decoded.
 */
function readText(incoming: IncomingMessage, done: (error: unknown, text: string) => void): void {
  const chunks: Buffer[] = [];
  let bytes = 0;
  const take = (source: Readable) => (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > MAX_ANSWER_BYTES) {
      source.destroy();
      return done(answerTooLarge(), '');
    }
    chunks.push(chunk);
  };
  // Decoded once at the end, so a character split across chunks stays whole.
  const finish = () => done(undefined, Buffer.concat(chunks, bytes).toString('utf8'));
  const decoder = decoderFor(incoming.headers['content-encoding']);
  if (!decoder) {
    incoming.on('data', take(incoming)).on('end', finish);
    return;
  }
  // Made with the first byte: an empty body is empty whatever its Content-Encoding (fetch reads
  // it so), where a decoder fed nothing fails ("unexpected end of file").
  let decoding = false;
  incoming.once('data', (first: Buffer) => {
    decoding = true;
    const body = decoder();
    body.on('data', take(body)).on('end', finish);
    body.on('error', (error) => done(error, ''));
    body.write(first);
    incoming.pipe(body);
  });
  incoming.once('end', () => decoding || finish());
}

function decoderFor(contentEncoding: string | undefined): (() => Transform) | undefined {
  const encoding = contentEncoding?.trim().toLowerCase();
  // node:zlib loads with the first compressed answer, not with the package.
  const zlib = () => process.getBuiltinModule('node:zlib');
  if (encoding === 'gzip' || encoding === 'x-gzip') return () => zlib().createGunzip();
  if (encoding === 'deflate') return () => zlib().createInflate();
  if (encoding === 'br') return () => zlib().createBrotliDecompress();
  return undefined;
}

function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string);
  return headers;
}

/** A 101 answer to a request that asked for no other protocol. */
function switchedProtocols(): Error {
  return Object.assign(new Error('the server switched protocols (HTTP 101), which no call asks for'), {
    code: 'ERR_UNEXPECTED_UPGRADE',
  });
}
