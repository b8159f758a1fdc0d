/** msw wiring shared by the core and resource suites: a server, a request log, a client factory. */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PaymentClient, type PaymentClientOptions } from '../../src/index.js';

export const BASE_URL = 'https://api.payinout.test/root';
export const CREDENTIALS = {
  username: 'merchant-user',
  password: 'pw-Secret-123',
  token: 'tok-Merchant-456',
};
export const BASIC = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;

export interface Recorded {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export const server = setupServer();
export const recorded: Recorded[] = [];
const byRequestId = new Map<string, Recorded>();

/** Installs the msw server for the calling test file and records every request. */
export function useMsw(): void {
  beforeAll(() => {
    server.listen({ onUnhandledRequest: 'error' });
    // Recorded synchronously, in request order; answer() fills the body in before responding.
    server.events.on('request:start', ({ request, requestId }) => {
      const entry: Recorded = {
        method: request.method,
        url: new URL(request.url),
        headers: request.headers,
        body: undefined,
      };
      recorded.push(entry);
      byRequestId.set(requestId, entry);
    });
  });
  afterEach(() => {
    server.resetHandlers();
    recorded.length = 0;
    byRequestId.clear();
  });
  afterAll(() => server.close());
}

export function makeClient(options: Partial<PaymentClientOptions> = {}): PaymentClient {
  return new PaymentClient({ ...CREDENTIALS, baseUrl: BASE_URL, maxRetries: 0, ...options });
}

export const ok = (data: unknown, message = 'Operación exitosa', init?: ResponseInit) =>
  HttpResponse.json({ code: '01', status: 'SUCCESS', message, data }, init);

/**
 * A create's success answer echoing the request's reference, amount and currency into
 * `data.transaction`, as the service's answer does (one that echoes anything else is settled by
 * lookup, not taken as the merchant's).
 */
export const okEchoing =
  (data: { transaction: Record<string, unknown> } & Record<string, unknown>) =>
  async ({ request }: { request: Request }) => {
    const sent = (await request.clone().json()) as Record<string, unknown>;
    const { reference, amount, currency } = sent;
    return ok({ ...data, transaction: { ...data.transaction, reference, amount, currency } });
  };

export const fail = (status: number, body: Record<string, unknown>) =>
  HttpResponse.json({ code: '00', status: 'ERROR', message: '', ...body }, { status });

/** Answers `responder` at `method path` (path relative to BASE_URL). */
export function answer(
  method: 'get' | 'post' | 'all',
  path: string,
  responder: Parameters<typeof http.get>[1],
): void {
  server.use(
    http[method](`${BASE_URL}${path}`, async (info) => {
      const text = await info.request.clone().text();
      const entry = byRequestId.get(info.requestId);
      if (entry && text) entry.body = JSON.parse(text);
      return responder(info);
    }),
  );
}
