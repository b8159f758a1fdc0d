/** `startSandboxServer()`: the simulator on a real node:http server (what the CLI runs). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CappedBytes } from '../core/body.js';
import { ConfigurationError } from '../core/errors.js';
import type { ApiErrorCode } from '../schemas/catalog.js';
import { createDashboard, type Dashboard } from './dashboard/index.js';
import { exchangeOf, type SandboxRequestRecord } from './exchange.js';
import { refuseContentType } from './guard.js';
import { isLoopbackHost, randomDemoMerchants, refuseForeignHost, withDocumentedCredentials } from './host.js';
import { createSandbox, type Sandbox } from './sandbox.js';
import type { SandboxOptions, SandboxResponse } from './types.js';

/** Options of {@link startSandboxServer}: the simulator's options plus where to listen. */
export interface SandboxServerOptions extends SandboxOptions {
  /** Default 0: a free port. */
  port?: number;
  /**
   * Default '127.0.0.1' (never exposed beyond this machine unless asked). On a loopback address
   * every request must name localhost, 127.0.0.1 or [::1] and this port in its Host header
   * (DNS rebinding). On any other address, without `merchants`, the demo merchants get random
   * passwords and tokens (read them from `server.sandbox.merchants`).
   */
  host?: string;
  /**
   * Use this sandbox instead of creating one (its merchants and state are served). Off loopback
   * it must not hold the documented demo credentials: make it with `merchants`.
   */
  sandbox?: Sandbox;
  /** Called once per API request after it is answered (or dropped by a fault): the CLI's request lines. */
  onRequest?: (record: SandboxRequestRecord) => void;
}

/** A running simulator over HTTP, from {@link startSandboxServer}. */
export interface SandboxServer {
  /** The base_url to give PaymentClient, e.g. 'http://127.0.0.1:4010'. */
  readonly url: string;
  /** The port it listens on (useful with `port: 0`). */
  readonly port: number;
  /**
   * The dashboard: balances, transactions, status histories, webhook deliveries, confirm and
   * resend buttons, live (node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md, "Dashboard"). On a non-loopback host it asks for
   * a merchant's username and password and shows only that merchant.
   */
  readonly dashboardUrl: string;
  /** The simulator behind it, to inspect transactions and deliveries. */
  readonly sandbox: Sandbox;
  /** Stops the server and the simulator's timers. */
  close(): Promise<void>;
}

/** Requests above this size are refused (413) rather than buffered. */
const MAX_BODY_BYTES = 1_048_576;

/**
 * Starts the simulator on a real node:http server, by default on a free port of 127.0.0.1
 * (what `npx payinout sandbox` runs).
 * @example
 * const server = await startSandboxServer();
 * const client = new PaymentClient({ username: 'demo-co', password: 'demo-co-pass',
 *   token: 'demo-co-token', baseUrl: server.url });
 * console.log(await client.merchant.getBalance());
 * await server.close();
 */
export async function startSandboxServer(options: SandboxServerOptions = {}): Promise<SandboxServer> {
  const host = options.host ?? '127.0.0.1';
  const sandbox = serverSandbox({ ...options, host });
  const dashboard = createDashboard(sandbox, host);
  let listening = 0; // set by the listen callback, before any request can arrive
  const server = createServer((req, res) => {
    const foreign = refuseForeignHost(req, host, listening);
    if (foreign === undefined) return serve(sandbox, dashboard, req, res, options.onRequest);
    req.resume(); // read and discard the body, so the connection stays usable
    send(res, 421, JSON_HEADERS, envelope('MISDIRECTED_REQUEST', foreign));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      dashboard.close(); // e.g. EADDRINUSE: the caller may retry on another port with this sandbox
      reject(error);
    });
    server.listen(options.port ?? 0, host, () => {
      listening = (server.address() as AddressInfo).port;
      server.removeAllListeners('error');
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${shownHost}:${port}`;
  sandbox.baseUrl = url;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    dashboardUrl: `${url}/dashboard/`,
    sandbox,
    close() {
      closing ??= new Promise<void>((resolve) => {
        dashboard.close();
        sandbox.close();
        server.close(() => resolve());
        server.closeIdleConnections();
        // Keep-alive clients that never hang up must not hold the process open.
        setTimeout(() => server.closeAllConnections(), 1_000).unref();
      });
      return closing;
    },
  };
}

/**
 * The sandbox a server on `host` serves: the one given, or a new one. Reachable from the
 * network, the documented demo passwords would let anyone in: demo merchants get random
 * credentials there, and a given sandbox that still holds the documented ones is refused.
 */
export function serverSandbox(options: SandboxServerOptions & { host: string }): Sandbox {
  const local = isLoopbackHost(options.host);
  if (options.sandbox) {
    const exposed = local ? [] : withDocumentedCredentials(options.sandbox.merchants);
    if (exposed.length > 0) {
      throw new ConfigurationError(
        `Refusing to serve the documented demo credentials of ${exposed.map((m) => m.username).join(', ')} on ${options.host}, which is reachable from the network: create the sandbox with your own \`merchants\`, or leave out \`sandbox\` to get demo merchants with random passwords and tokens.`,
      );
    }
    return options.sandbox;
  }
  if (local || options.merchants) return createSandbox(options);
  return createSandbox({ ...options, merchants: randomDemoMerchants() });
}

function serve(
  sandbox: Sandbox,
  dashboard: Dashboard,
  req: IncomingMessage,
  res: ServerResponse,
  onRequest: ((record: SandboxRequestRecord) => void) | undefined,
): void {
  req.on('error', () => res.destroy());
  const arrived = Date.now();
  const started = performance.now();
  const path = (req.url ?? '/').split('?', 1)[0]!;
  try {
    if (dashboard.handle(req, res, path)) return;
    // Browsers ask every page of this origin (dashboard, checkout) for an icon.
    if (path === '/favicon.ico') return void dashboard.handle(req, res, '/dashboard/favicon.svg');
  } catch (error) {
    internalError(res, error);
    return;
  }
  // On 'data' events (an async iterator costs per request), drained past the cap: a 413, not a reset.
  const received = new CappedBytes(MAX_BODY_BYTES);
  req.on('data', (chunk: Buffer) => received.add(chunk));
  req.on('end', () => {
    const bytes = received.bytes();
    if (bytes === undefined) {
      send(res, 413, JSON_HEADERS, envelope('PAYLOAD_TOO_LARGE', 'Body above 1 MiB.'));
      return;
    }
    // Whatever a client sends, the answer is an envelope: a throw here (a body no endpoint
    // foresaw, an answer that cannot be serialised) is a 500, never a crash of the process.
    try {
      const body = bodyText(bytes);
      const api = !path.startsWith('/checkout/'); // the checkout page posts an HTML form
      const refused = api ? refuseContentType(req.headers['content-type'], body) : undefined;
      const answer =
        refused ??
        sandbox.handle({ method: req.method ?? 'GET', path: req.url ?? '/', headers: req.headers, body });
      const report = onRequest && (() => onRequest(record(req, path, answer, arrived, started)));
      answerOrFault(res, answer, report);
    } catch (error) {
      internalError(res, error);
    }
  });
}

/** A request's body as text; none when it is empty. */
function bodyText(bytes: Uint8Array): string | undefined {
  if (bytes.byteLength === 0) return undefined;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Sends the answer, or does what the fault that fired on it asks: close with no answer, or wait first. */
function answerOrFault(res: ServerResponse, answer: SandboxResponse, report: (() => void) | undefined): void {
  const { fault } = answer;
  if (fault && answer.status === 0) {
    res.destroy(); // the client sees the connection close with no answer, as when a proxy dies
    report?.();
    return;
  }
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
  const deliver = () => {
    if (res.destroyed) return; // the client gave up, or the server closed, during a delay
    send(res, answer.status, answer.headers, text);
    report?.();
  };
  // Unref'd: the open connection keeps the process up; a closing server need not wait the delay out.
  if (fault?.ms) setTimeout(deliver, fault.ms).unref();
  else deliver();
}

function record(
  req: IncomingMessage,
  path: string,
  answer: SandboxResponse,
  at: number,
  started: number,
): SandboxRequestRecord {
  const exchange = exchangeOf(answer);
  return {
    at,
    method: req.method ?? 'GET',
    path,
    ...(exchange
      ? { operation: exchange.operation, merchant: exchange.merchant, subject: exchange.subject }
      : {}),
    status: answer.status,
    ms: performance.now() - started,
    ...(answer.fault ? { fault: answer.fault } : {}),
  };
}

function envelope(error: ApiErrorCode, message: string): string {
  return JSON.stringify({ code: '00', status: 'ERROR', error, message });
}

function internalError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
  send(
    res,
    500,
    JSON_HEADERS,
    envelope('INTERNAL_ERROR', `The simulator failed on this request (${reason}).`),
  );
}

function send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
  res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
