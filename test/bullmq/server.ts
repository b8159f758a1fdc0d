/**
 * The simulator behind a real node:http server for the queue suites: worker child processes
 * reach it over HTTP. It counts every create that reached the simulator per reference (a
 * reference sent twice shows up as 2 even though the simulator refuses the duplicate), knows
 * which worker sent each request (its User-Agent carries the worker's appInfo name), loses the
 * answers of chosen creates after they committed, and answers injected statuses (429, 401).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';
import { MERCHANT } from '../bulk/server.js';

export { MERCHANT, payout } from '../bulk/server.js';

export interface Request {
  method: string;
  reference: string;
  /** The worker's name from its User-Agent ('' when none). */
  worker: string;
  time: number;
}

export interface QueueServer {
  url: string;
  sandbox: Sandbox;
  requests: Request[];
  /** Create POSTs that reached the simulator, per reference. */
  posted: Map<string, number>;
  /** References whose first create commits and then loses its answer (the socket is destroyed). */
  loseAnswer: Set<string>;
  /** Answered instead of the simulator while it returns a reply; `undefined` passes the request on. */
  inject?: (
    request: Request,
  ) => { status: number; headers?: Record<string, string>; message?: string; error?: string } | undefined;
  /** Runs before a lookup reaches the simulator; may delay it. */
  beforeLookup?: (request: Request) => void | Promise<void>;
  /** Runs before a create reaches the simulator; may delay its commit. */
  beforeCommit?: (request: Request) => void | Promise<void>;
  /** Runs after a create committed, before its answer; may delay the answer. */
  afterCommit?: (request: Request) => void | Promise<void>;
  payoutsFor(reference: string): number;
  close(): Promise<void>;
}

export async function startQueueServer(): Promise<QueueServer> {
  const sandbox = createSandbox({ merchants: [{ ...MERCHANT, country: 'CO', balance: 1e12 }] });
  const state = {
    requests: [] as Request[],
    posted: new Map<string, number>(),
    loseAnswer: new Set<string>(),
  } as QueueServer;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const request: Request = {
        method,
        reference: referenceOf(method, path, body),
        worker: /\b(worker-\d+)\b/.exec(String(req.headers['user-agent']))?.[1] ?? '',
        time: Date.now(),
      };
      state.requests.push(request);
      const injected = state.inject?.(request);
      if (injected) {
        const message = injected.message ?? `injected ${injected.status}`;
        const envelope = {
          code: '00',
          status: 'ERROR',
          message,
          ...(injected.error && { error: injected.error }),
        };
        res.writeHead(injected.status, { 'content-type': 'application/json', ...injected.headers });
        return void res.end(JSON.stringify(envelope));
      }
      const create = method === 'POST' && path.includes('/payout');
      if (method === 'GET') await state.beforeLookup?.(request);
      if (create) await state.beforeCommit?.(request);
      if (create) state.posted.set(request.reference, (state.posted.get(request.reference) ?? 0) + 1);
      const answer = sandbox.handle({ method, path, headers: req.headers, body: body || undefined });
      if (create) await state.afterCommit?.(request);
      if (create && state.loseAnswer.delete(request.reference)) return void res.socket?.destroy();
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, answer.headers);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.sandbox = sandbox;
  state.payoutsFor = (reference) =>
    [...sandbox.transactions.values()].filter((t) => t.reference === reference && t.type === 'PAYOUT').length;
  state.close = () =>
    new Promise<void>((resolve) => {
      sandbox.close();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return state;
}

function referenceOf(method: string, path: string, body: string): string {
  if (method === 'GET') return decodeURIComponent(path.split('/').pop() ?? '');
  try {
    return String((JSON.parse(body) as { reference?: unknown }).reference ?? '');
  } catch {
    return '';
  }
}
