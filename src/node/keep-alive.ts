/**
 * The Node sender's connection pools, and the rule that keeps a keep-alive connection honest:
 * a response is never read from bytes that arrived before its request was written. A connection
 * goes back to the pool only when every byte it received during its exchange belongs to the
 * answer (framed by its Content-Length or chunked coding), and it leaves the pool only if it
 * received nothing while idle. Anything else — a second response written in the same write as
 * the first (response splitting, a proxy bug), the start of one, a stray 408, garbage — would be
 * read as the NEXT request's answer (a committed PayOut reported as the stray's 422), so that
 * connection serves no other request. undici, behind `fetch`, refuses the same bytes.
 */
import type http from 'node:http';
import type { Duplex } from 'node:stream';

// One pool per process, as undici's global dispatcher is for fetch. Idle sockets are unref'd by
// the agent, so they never keep a process alive. An idle socket is closed after 4 s, or 1 s
// before the server's `Keep-Alive: timeout=` hint if that is sooner (Node reads the hint only
// when the agent has a timeout), as undici does: a socket the server closes while idle would
// otherwise reset the next request sent on it.
const IDLE_MS = 4_000;
const agents: { http?: http.Agent; https?: http.Agent } = {};

/**
 * The pool of a scheme, made on first use. node:http and node:https load then too, through
 * `process.getBuiltinModule` (every Node the package supports has it), not with
 * `import('payinout')`: a process that never sends, or never over https, never pays for them.
 */
export function agentFor(secure: boolean): http.Agent {
  const scheme = secure ? 'https' : 'http';
  agents[scheme] ??= guard(new (builtin(scheme).Agent)({ keepAlive: true, timeout: IDLE_MS }));
  return agents[scheme];
}

const modules: { http?: typeof http; https?: typeof http } = {};

/** node:http or node:https, loaded on first use. */
export function builtin(scheme: 'http' | 'https'): typeof http {
  modules[scheme] ??= process.getBuiltinModule(`node:${scheme}`) as typeof http;
  return modules[scheme];
}

/**
 * What a connection received during the exchange in progress on it. One per connection, made
 * with its first exchange and reset by each next one, so an exchange allocates nothing here.
 */
class Received {
  readonly chunks: Buffer[] = [];
  bytes = 0;
  /** An exchange is in progress: the bytes are its own (else they arrived while idle). */
  watching = false;
}

const exchanges = new WeakMap<Duplex, Received>();

/**
 * Records every byte `socket` receives from now until the agent decides whether to pool it.
 * Called when a request is given its socket, before anything of the request is written.
 */
export function watchExchange(socket: Duplex): void {
  let received = exchanges.get(socket);
  if (!received) {
    received = new Received();
    exchanges.set(socket, received);
    // Before node:http's own listener, so the chunk that completes the answer is counted too. Added
    // once per connection: node:http adds its listener again with each request, after this one.
    socket.prependListener('data', record);
  }
  // A socket handed straight from one request to the next starts over with the next.
  received.chunks.length = 0;
  received.bytes = 0;
  received.watching = true;
}

/**
 * The listener of every watched connection, the one it is called on (`this`): one function for
 * all of them, so watching an exchange allocates no closure. Bytes while idle are not recorded:
 * the idle guard closes the connection (`destroyOnIdleData`).
 */
function record(this: Duplex, chunk: Buffer): void {
  const received = exchanges.get(this);
  if (!received?.watching) return;
  received.chunks.push(chunk);
  received.bytes += chunk.length;
}

/** Whether the bytes of the exchange on `socket` are exactly one answer (after any 1xx). */
function exchangeWasClean(socket: Duplex): boolean {
  const received = exchanges.get(socket);
  if (!received?.watching) return true;
  received.watching = false;
  const { chunks, bytes } = received;
  // An answer that came in one chunk (the usual case) is read where it lies, not copied.
  const all = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, bytes);
  // The connection keeps no answer alive while it waits in the pool.
  chunks.length = 0;
  return responseEnd(all) === bytes;
}

function guard<A extends http.Agent>(agent: A): A {
  const keep = agent.keepSocketAlive.bind(agent) as (socket: Duplex) => boolean;
  const reuse = agent.reuseSocket.bind(agent);
  agent.keepSocketAlive = (socket: Duplex) => {
    if (!exchangeWasClean(socket) || socket.readableLength > 0 || !keep(socket)) return false;
    // Resumed, as node:http may leave it paused after a body, so bytes sitting unread count too.
    socket.on('data', destroyOnIdleData).resume();
    return true;
  };
  agent.reuseSocket = (socket, request) => {
    socket.removeListener('data', destroyOnIdleData);
    reuse(socket, request);
  };
  return agent;
}

/** The idle guard of every pooled connection: it closes the one it is called on (`this`). */
function destroyOnIdleData(this: Duplex): void {
  this.destroy();
}

// Searched for as bytes: a string needle is encoded again on every search (twice the time).
const HEAD_END = Buffer.from('\r\n\r\n', 'latin1');
const CRLF = Buffer.from('\r\n', 'latin1');

/**
 * The offset just past the final response in `bytes` (1xx interim responses skipped), or
 * `undefined` when its framing cannot be read, which keeps the connection out of the pool.
 */
export function responseEnd(bytes: Buffer): number | undefined {
  let start = 0;
  for (;;) {
    const headEnd = bytes.indexOf(HEAD_END, start);
    if (headEnd === -1) return undefined;
    const head = bytes.toString('latin1', start, headEnd);
    const status = /^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1];
    if (status === undefined) return undefined;
    const bodyStart = headEnd + 4;
    if (status.startsWith('1')) {
      start = bodyStart;
      continue;
    }
    if (status === '204' || status === '304') return bodyStart;
    if (/^transfer-encoding:.*\bchunked[ \t]*$/im.test(head)) return chunkedEnd(bytes, bodyStart);
    const length = /^content-length:[ \t]*(\d+)[ \t]*$/im.exec(head)?.[1];
    return length === undefined ? undefined : bodyStart + Number(length);
  }
}

/** The offset just past a chunked body starting at `at` (its last chunk and trailers included). */
function chunkedEnd(bytes: Buffer, at: number): number | undefined {
  let offset = at;
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, offset);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(bytes.toString('latin1', offset, lineEnd).split(';')[0] ?? '', 16);
    if (Number.isNaN(size)) return undefined;
    offset = lineEnd + 2;
    if (size === 0) break;
    offset += size + 2;
  }
  // Trailer fields, then the empty line that ends the message.
  for (;;) {
    const lineEnd = bytes.indexOf(CRLF, offset);
    if (lineEnd === -1) return undefined;
    if (lineEnd === offset) return offset + 2;
    offset = lineEnd + 2;
  }
}
