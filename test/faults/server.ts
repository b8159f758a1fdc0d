/**
 * A real node:http service double on 127.0.0.1 with a fault queue. It is deliberately naive:
 * every committed create is stored as a new transaction, even for a reference it already holds,
 * so a duplicate sent by the SDK shows up as two transactions instead of being hidden.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaymentClient, type PaymentClientOptions } from '../../src/index.js';

export const CREDENTIALS = {
  username: 'fault-user',
  password: 'fault-Pass-31337',
  token: 'fault-Token-4242',
};

export type Fault =
  /** Destroy the socket without answering; a create is not committed. */
  | { kind: 'drop' }
  /** Commit the create, then destroy the socket without answering. */
  | { kind: 'drop-after-commit' }
  /** Drop without answering; the create commits only when the next request for it arrives (a slow commit). */
  | { kind: 'drop-commit-late' }
  /** Answer this status with an error envelope; `commit` stores the create first. */
  | { kind: 'status'; status: number; error?: string; headers?: Record<string, string>; commit?: boolean }
  /** A proxy's HTML error page (502 by default). */
  | { kind: 'html'; status?: number }
  /** A complete HTTP 200 whose JSON body is cut short; a create is committed. */
  | { kind: 'truncated' }
  /** Commit, then wait `ms` before sending the headers. */
  | { kind: 'slow-headers'; ms: number }
  /** Commit, send the headers and half the body, then stall for `ms`. */
  | { kind: 'slow-body'; ms: number }
  /** Commit, send the headers and half the body, then reset the socket. */
  | { kind: 'reset-mid-body' }
  /** Commit and answer the normal JSON with Content-Type text/html. */
  | { kind: 'wrong-content-type' }
  /** Answer a redirect to `location`. */
  | { kind: 'redirect'; status: number; location: string };

export interface QueuedFault {
  fault: Fault;
  /** Only requests with this method (default: any). */
  method?: 'GET' | 'POST';
  /** Only requests whose path (without /root) starts with this (default: any). */
  path?: string;
}

export interface Logged {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

export interface StoredTransaction {
  ticket: string;
  reference: string;
  amount: number;
  currency: string;
  type_transaction: string;
  status: string;
  date: string;
  payment_method?: string;
  customer?: Record<string, unknown> | undefined;
}

export interface FaultServer {
  baseUrl: string;
  log: Logged[];
  transactions: StoredTransaction[];
  queue(...faults: QueuedFault[]): void;
  /** Requests as 'METHOD /path', in arrival order. */
  order(): string[];
  countFor(reference: string): number;
  client(options?: Partial<PaymentClientOptions>): PaymentClient;
  close(): Promise<void>;
}

const CREATE_PATHS: Record<string, 'PAYIN' | 'PAYOUT'> = {
  '/api/v2/payin': 'PAYIN',
  '/api/v1/payin': 'PAYIN',
  '/api/v1/payout': 'PAYOUT',
};

export const DATE = '2025-01-15 10:30:00';

export interface FaultServerOptions {
  rejectDuplicates?: boolean;
  seed?: Partial<StoredTransaction>[];
  /**
   * How a lookup answers `data`: 'first' (default) the first match as an object; 'matches' every
   * transaction whose ticket or reference is the id, as an array; 'all' every stored transaction.
   */
  lookup?: 'first' | 'matches' | 'all';
}

export async function startFaultServer(options: FaultServerOptions = {}): Promise<FaultServer> {
  const log: Logged[] = [];
  const transactions: StoredTransaction[] = [];
  const faults: QueuedFault[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const lateCommits: Array<() => void> = [];
  let tickets = 0;

  const later = (ms: number, run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run();
    }, ms);
    timers.add(timer);
  };

  const store = (kind: 'PAYIN' | 'PAYOUT', body: Record<string, unknown>): StoredTransaction => {
    const tx: StoredTransaction = {
      ticket: `T-${++tickets}`,
      reference: String(body.reference),
      amount: Number(body.amount),
      currency: String(body.currency),
      type_transaction: kind,
      status: 'PENDING',
      date: DATE,
      payment_method: String(body.payment_method),
      customer: publicCustomer(body.customer_data),
    };
    transactions.push(tx);
    return tx;
  };
  for (const seed of options.seed ?? []) {
    transactions.push({
      ticket: `T-${++tickets}`,
      reference: 'seed',
      amount: 1000,
      currency: 'COP',
      type_transaction: 'PAYIN',
      status: 'APPROVED',
      date: DATE,
      ...seed,
    });
  }

  const takeFault = (method: string, path: string): Fault | undefined => {
    const index = faults.findIndex(
      (q) => (!q.method || q.method === method) && (!q.path || path.startsWith(q.path)),
    );
    return index === -1 ? undefined : faults.splice(index, 1)[0]!.fault;
  };

  /** The normal answer of a route: [status, envelope]. `commit` runs a create's side effect. */
  const route = (method: string, path: string, body: Record<string, unknown>, commit: boolean) => {
    const kind = CREATE_PATHS[path];
    if (method === 'POST' && kind) {
      while (lateCommits.length) lateCommits.shift()!();
      if (options.rejectDuplicates && transactions.some((t) => t.reference === body.reference)) {
        return [
          422,
          { code: '00', status: 'ERROR', error: 'VALIDATION_ERROR', message: 'reference exists' },
        ] as const;
      }
      const tx = commit ? store(kind, body) : { ticket: 'T-uncommitted', date: DATE };
      const transaction = {
        reference: body.reference,
        amount: body.amount,
        currency: body.currency,
        payment_method: body.payment_method,
      };
      const data =
        kind === 'PAYIN'
          ? { ticket: tx.ticket, date: tx.date, payment_url: 'https://pay.example/x', transaction }
          : { ticket: tx.ticket, date: tx.date, transaction };
      return [200, { code: '01', status: 'SUCCESS', message: 'ok', data }] as const;
    }
    if (method === 'GET' && path.startsWith('/api/v1/transaction/')) {
      const id = decodeURIComponent(path.slice('/api/v1/transaction/'.length));
      const matches = transactions.filter((t) => t.reference === id || t.ticket === id);
      if (options.lookup === 'all') {
        return [200, { code: '01', status: 'SUCCESS', message: '', data: transactions }] as const;
      }
      if (!matches.length)
        return [404, { code: '00', status: 'ERROR', error: 'NOT_FOUND', message: 'not found' }] as const;
      const data = options.lookup === 'matches' ? matches : matches[0];
      return [200, { code: '01', status: 'SUCCESS', message: '', data }] as const;
    }
    if (path === '/api/v1/merchant/me') {
      const data = { name: 'Shop', nit: '900', email: 'shop@example.com', currency: 'COP', wallet: 10 };
      return [200, { code: '01', status: 'SUCCESS', message: '', data }] as const;
    }
    if (path === '/api/v1/merchant/balance') {
      const data = { currency: 'COP', balance: 10.5, balance_formatted: 'COP 10,50' };
      return [200, { code: '01', status: 'SUCCESS', message: '', data }] as const;
    }
    if (path === '/api/v1/pse/banks') {
      return [
        200,
        { code: '01', status: 'SUCCESS', message: '', data: [{ code: '1007', name: 'Banka' }] },
      ] as const;
    }
    if (method === 'POST' && path.startsWith('/api/v1/sandbox/')) {
      const data = {
        transaction_id: body.transaction_id,
        payment_method: body.payment_method,
        status: body.status,
      };
      return [200, { code: '01', status: 'SUCCESS', message: 'confirmed', data }] as const;
    }
    return [404, { code: '00', status: 'ERROR', error: 'NOT_FOUND', message: 'no route' }] as const;
  };

  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {}
    const method = req.method ?? 'GET';
    const path = (req.url ?? '/').replace(/^\/root/, '').split('?')[0]!;
    log.push({ method, path, authorization: req.headers.authorization, body });

    const fault = takeFault(method, path);
    const isCreate = method === 'POST' && CREATE_PATHS[path] !== undefined;
    const json = (status: number, envelope: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(JSON.stringify(envelope));
    };
    const halfBody = (envelope: unknown) => {
      const text = JSON.stringify(envelope);
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(text.length) });
      res.write(text.slice(0, Math.floor(text.length / 2)));
    };

    switch (fault?.kind) {
      case undefined: {
        const [status, envelope] = route(method, path, body, true);
        return json(status, envelope);
      }
      case 'drop':
        return req.socket.destroy();
      case 'drop-after-commit':
        route(method, path, body, true);
        return req.socket.destroy();
      case 'drop-commit-late':
        if (isCreate) lateCommits.push(() => route(method, path, body, true));
        return req.socket.destroy();
      case 'status': {
        if (fault.commit) route(method, path, body, true);
        const envelope = {
          code: '00',
          status: 'ERROR',
          message: 'fault',
          ...(fault.error ? { error: fault.error } : {}),
        };
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        return res.end(JSON.stringify(envelope));
      }
      case 'html':
        res.writeHead(fault.status ?? 502, { 'content-type': 'text/html' });
        return res.end('<html><body><h1>502 Bad Gateway</h1></body></html>');
      case 'truncated': {
        const [status, envelope] = route(method, path, body, true);
        const text = JSON.stringify(envelope);
        res.writeHead(status, { 'content-type': 'application/json' });
        return res.end(text.slice(0, Math.floor(text.length / 2)));
      }
      case 'slow-headers': {
        const [status, envelope] = route(method, path, body, true);
        return later(fault.ms, () => !res.destroyed && json(status, envelope));
      }
      case 'slow-body': {
        const [, envelope] = route(method, path, body, true);
        halfBody(envelope);
        return later(fault.ms, () => !res.destroyed && res.end(JSON.stringify(envelope).slice(-1)));
      }
      case 'reset-mid-body': {
        const [, envelope] = route(method, path, body, true);
        halfBody(envelope);
        return later(20, () => res.socket?.destroy());
      }
      case 'wrong-content-type': {
        const [status, envelope] = route(method, path, body, true);
        return json(status, envelope, 'text/html; charset=utf-8');
      }
      case 'redirect':
        res.writeHead(fault.status, { location: fault.location, 'content-type': 'text/plain' });
        return res.end('moved');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}/root`;

  return {
    baseUrl,
    log,
    transactions,
    queue: (...items) => faults.push(...items),
    order: () => log.map((entry) => `${entry.method} ${entry.path}`),
    countFor: (reference) => transactions.filter((t) => t.reference === reference).length,
    client: (overrides = {}) =>
      new PaymentClient({ ...CREDENTIALS, baseUrl, timeoutMs: 1_500, ...overrides }),
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The customer as a lookup shows it: its document, never the rest. */
function publicCustomer(value: unknown): Record<string, unknown> | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { legal_doc, legal_doc_type } = value as Record<string, unknown>;
  return { legal_doc, legal_doc_type };
}

/**
 * The reconciliation invariant, checked on the server's request log: between two create POSTs
 * for one reference there is a lookup of that reference, and at most one transaction exists.
 */
export function checkInvariant(server: FaultServer, reference: string): string[] {
  const problems: string[] = [];
  let pendingPost = false;
  for (const entry of server.log) {
    const isCreate = entry.method === 'POST' && CREATE_PATHS[entry.path] !== undefined;
    if (isCreate && (entry.body as { reference?: unknown }).reference === reference) {
      if (pendingPost) problems.push('two create POSTs without a lookup between them');
      pendingPost = true;
    }
    if (entry.method === 'GET' && entry.path === `/api/v1/transaction/${reference}`) pendingPost = false;
  }
  const count = server.countFor(reference);
  if (count > 1) problems.push(`${count} transactions for reference ${reference}`);
  return problems;
}
