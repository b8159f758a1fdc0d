/**
 * The simulator behind a real node:http server with a fault queue, for batch tests. The server
 * counts every create POST that reached the simulator per reference: a batch that sent one
 * reference twice shows up as a count of 2 even though the simulator refuses the duplicate.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PaymentClient, type PaymentClientOptions, type PayOutCreateParamsFor } from '../../src/index.js';
import { createSandbox, type Sandbox } from '../../src/testing/index.js';

export const MERCHANT = { username: 'bulk-co', password: 'bulk-co-pass', token: 'bulk-co-token' };

export type Fault =
  /** Pass the request to the simulator (a create commits), then destroy the socket unanswered. */
  | { kind: 'drop-after-commit' }
  /** Destroy the socket without passing the request on. */
  | { kind: 'drop' }
  /** Answer this status (and body: an error envelope unless given) without passing the request on. */
  | { kind: 'status'; status: number; headers?: Record<string, string>; body?: string }
  /** Pass the request to the simulator (a create commits), then answer 200 with an HTML page. */
  | { kind: 'garbage-after-commit' }
  /** Run `hook` as the request arrives, then pass it on as usual. */
  | { kind: 'hook'; hook: () => void };

export interface Rule {
  fault: Fault;
  method?: 'GET' | 'POST';
  /** Only requests for this reference (the create body's or the lookup path's). */
  reference?: string;
  /** How many matching requests it hits (default 1). */
  times?: number;
  /** Matching requests to let through before it starts hitting (default 0). */
  skip?: number;
}

export interface BulkServer {
  url: string;
  sandbox: Sandbox;
  /** 'POST ref' / 'GET ref' in arrival order, faults included. */
  log: string[];
  /** Arrival time (Date.now()) of each `log` entry. */
  times: number[];
  /** Create POSTs that reached the simulator, per reference. */
  posted: Map<string, number>;
  inject(...rules: Rule[]): void;
  /** PayOuts the simulator holds for `reference`. */
  payoutsFor(reference: string): number;
  client(options?: Partial<PaymentClientOptions>): PaymentClient;
  close(): Promise<void>;
}

export async function startBulkServer(): Promise<BulkServer> {
  const sandbox = createSandbox({ merchants: [{ ...MERCHANT, country: 'CO', balance: 1e12 }] });
  const rules: Rule[] = [];
  const log: string[] = [];
  const times: number[] = [];
  const posted = new Map<string, number>();

  const take = (method: string, reference: string): Fault | undefined => {
    const rule = rules.find(
      (r) => (!r.method || r.method === method) && (!r.reference || r.reference === reference),
    );
    if (!rule) return undefined;
    if (rule.skip) {
      rule.skip--;
      return undefined;
    }
    rule.times = (rule.times ?? 1) - 1;
    if (rule.times <= 0) rules.splice(rules.indexOf(rule), 1);
    return rule.fault;
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      const reference = referenceOf(method, path, body);
      log.push(`${method} ${reference}`);
      times.push(Date.now());
      const fault = take(method, reference);
      if (fault?.kind === 'drop') return void res.socket?.destroy();
      if (fault?.kind === 'status') {
        const envelope = JSON.stringify({ code: '00', status: 'ERROR', message: `injected ${fault.status}` });
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        return void res.end(fault.body ?? envelope);
      }
      if (fault?.kind === 'hook') fault.hook();
      if (method === 'POST' && path.includes('/payout'))
        posted.set(reference, (posted.get(reference) ?? 0) + 1);
      const answer = sandbox.handle({ method, path, headers: req.headers, body: body || undefined });
      if (fault?.kind === 'drop-after-commit') return void res.socket?.destroy();
      if (fault?.kind === 'garbage-after-commit') {
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><body>Service temporarily unavailable</body></html>');
      }
      const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, answer.headers);
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sandbox,
    log,
    times,
    posted,
    inject: (...more) => rules.push(...more),
    payoutsFor: (reference) =>
      [...sandbox.transactions.values()].filter((t) => t.reference === reference && t.type === 'PAYOUT')
        .length,
    client: (options = {}) => new PaymentClient({ ...MERCHANT, baseUrl: url, ...options }),
    close: () =>
      new Promise<void>((resolve) => {
        sandbox.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function referenceOf(method: string, path: string, body: string): string {
  if (method === 'GET') return decodeURIComponent(path.split('/').pop() ?? '');
  try {
    return String((JSON.parse(body) as { reference?: unknown }).reference ?? '');
  } catch {
    return '';
  }
}

/** A valid Colombian PayOut; `n` makes the reference and the account unique. */
export function payout(
  n: number,
  overrides: Partial<PayOutCreateParamsFor<'CO'>> = {},
): PayOutCreateParamsFor<'CO'> {
  return {
    payment_method: 'BANK_TRANSFER',
    reference: `bulk-${n}`,
    amount: 10_000 + n,
    currency: 'COP',
    country: 'CO',
    ipn_url: 'https://merchant.example.com/webhooks/payinout',
    customer_data: {
      legal_doc: String(1_000_000 + n),
      legal_doc_type: 'CC',
      phone_code: '57',
      phone_number: '3001234567',
      email: `seller${n}@example.com`,
      full_name: `Seller ${n}`,
      bank: 'BANCOLOMBIA',
      account_number: String(20_000_000_000 + n),
      account_type: 'AHORRO',
    },
    ...overrides,
  };
}

export const batch = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));

/** Every reference was created exactly once, and reached the simulator exactly once. */
export function exactlyOnce(server: BulkServer, references: string[]): string[] {
  return references.filter((r) => server.payoutsFor(r) !== 1 || server.posted.get(r) !== 1);
}
