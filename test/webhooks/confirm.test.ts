/**
 * confirmWith: a delivery is handed to onEvent only when the service's lookup shows it.
 * End to end on the simulator: real PaymentClient, real HTTP receiver on loopback, genuine
 * deliveries sent by the simulator, and replays of them with an altered status or amount (the
 * signature still matches: it covers token, ticket and reference only).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  PaymentClient,
  type Transaction,
  WebhookConfirmationUnavailableError,
  type WebhookEvent,
  WebhookNotConfirmedError,
} from '../../src/index.js';
import { connectSandbox, type SandboxConnection } from '../../src/testing/index.js';
import { payinCO } from '../helpers/fixtures.js';

interface Captured {
  body: string;
  headers: Record<string, string>;
  status: number;
}

const quiet = () => {
  const lines: string[] = [];
  return {
    lines,
    logger: { warn: (m: string) => void lines.push(m), error: (m: string) => void lines.push(m) },
  };
};

describe('createWebhookHandler({ confirmWith: client }) on the simulator', () => {
  let sandbox: SandboxConnection;
  let receiver: Server;
  let url: string;
  const captured: Captured[] = [];
  const handled: { event: WebhookEvent; transaction: Transaction | undefined }[] = [];
  const errors: { status: number; error: unknown }[] = [];
  const log = quiet();

  beforeAll(async () => {
    sandbox = await connectSandbox({ env: {}, country: 'CO' });
    const handler = createWebhookHandler({
      token: sandbox.token,
      confirmWith: sandbox.client,
      logger: log.logger,
      onEvent: (event, { transaction }) => void handled.push({ event, transaction }),
      onError: (error, { status }) => void errors.push({ status, error }),
    });
    // The receiver keeps each raw delivery (as an attacker on the path could) and hands it on.
    receiver = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      // Only the headers a replay carries over (content-length changes with the body).
      const headers = {
        'content-type': String(req.headers['content-type']),
        'x-trx-signature': String(req.headers['x-trx-signature']),
      };
      const result = await handler.handle(body, headers);
      captured.push({ body, headers, status: result.status });
      res.writeHead(result.status, result.headers).end(result.body);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  });

  afterAll(async () => {
    await new Promise((resolve) => receiver?.close(resolve));
    await sandbox?.close();
  });

  /** Creates a PayIn whose ipn_url is our receiver, confirms it with `status`, waits for the delivery. */
  async function settle(reference: string, status: 'APPROVED' | 'REJECTED'): Promise<Captured> {
    const created = await sandbox.client.payin.create({ ...payinCO, reference, ipn_url: url });
    const before = captured.length;
    await sandbox.client.sandbox.confirmPayIn({
      transaction_id: created.ticket,
      payment_method: 'BREB',
      status,
    });
    for (let i = 0; i < 200 && captured.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    const delivery = captured.find((c) => JSON.parse(c.body).top_reference === reference);
    if (!delivery) throw new Error(`no delivery for ${reference}`);
    expect(delivery.status).toBe(200); // the genuine delivery itself is confirmed and processed
    return delivery;
  }

  const replay = (delivery: Captured, changes: Record<string, unknown>) =>
    fetch(url, {
      method: 'POST',
      body: JSON.stringify({ ...JSON.parse(delivery.body), ...changes }),
      headers: delivery.headers,
    });

  it('a genuine delivery is confirmed and onEvent gets the looked-up transaction', async () => {
    const genuine = await settle('confirm-genuine', 'APPROVED');
    const ticket = JSON.parse(genuine.body).top_ticket;
    const seen = handled.find((h) => h.event.top_ticket === ticket);
    expect(seen?.event.top_status).toBe('APPROVED');
    expect(seen?.transaction).toMatchObject({ ticket, reference: 'confirm-genuine', status: 'APPROVED' });
  });

  it('a REJECTED delivery replayed as APPROVED (valid signature) is answered 409 and never reaches onEvent', async () => {
    const rejected = await settle('confirm-rejected', 'REJECTED');
    const ticket = JSON.parse(rejected.body).top_ticket;
    const before = handled.length;
    const response = await replay(rejected, { top_status: 'APPROVED' });
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({ error: 'not_confirmed' });
    expect(handled.length).toBe(before);
    expect(handled.filter((h) => h.event.top_ticket === ticket).map((h) => h.event.top_status)).toEqual([
      'REJECTED',
    ]);
    const reported = errors.at(-1);
    expect(reported?.status).toBe(409);
    expect(reported?.error).toBeInstanceOf(WebhookNotConfirmedError);
    expect(reported?.error).toMatchObject({ mismatched: ['top_status'] });
    expect(log.lines.at(-1)).toMatch(/not confirmed.*top_status.*lookup status REJECTED, delivered APPROVED/);
    // Replayed again and again, it never passes (the service would stop after its retries).
    expect((await replay(rejected, { top_status: 'APPROVED' })).status).toBe(409);
  });

  it('an APPROVED delivery replayed with a higher amount is answered 409', async () => {
    const approved = await settle('confirm-amount', 'APPROVED');
    const before = handled.length;
    const response = await replay(approved, { top_amount: 9_999_999, top_status: 'APPROVED' });
    // The genuine event was processed already; a changed amount must not even count as its duplicate.
    expect(response.status).toBe(409);
    expect(handled.length).toBe(before);
    expect(errors.at(-1)?.error).toMatchObject({ mismatched: ['top_amount'] });
  });

  it('a failing lookup answers 503 (the service retries), never 200', async () => {
    const genuine = await settle('confirm-down', 'APPROVED');
    const down = new PaymentClient({
      username: 'demo',
      password: 'demo-pass',
      token: sandbox.token,
      baseUrl: 'http://127.0.0.1:9', // discard port: nothing listens
      maxRetries: 0,
    });
    const onEvent = () => {
      throw new Error('must not run');
    };
    const errorsSeen: unknown[] = [];
    const handler = createWebhookHandler({
      token: sandbox.token,
      confirmWith: down,
      onEvent,
      logger: quiet().logger,
      onError: (error) => void errorsSeen.push(error),
    });
    const result = await handler.handle(genuine.body, genuine.headers);
    expect(result.status).toBe(503);
    expect(JSON.parse(result.body)).toMatchObject({ error: 'confirm_unavailable' });
    expect(errorsSeen[0]).toBeInstanceOf(WebhookConfirmationUnavailableError);
  });

  it('a lookup that never answers is cut at confirmTimeoutMs: 503, no hang', async () => {
    const genuine = await settle('confirm-hang', 'APPROVED');
    const hung = { transactions: { get: () => new Promise<Transaction>(() => {}) } };
    const handler = createWebhookHandler({
      token: sandbox.token,
      confirmWith: hung,
      confirmTimeoutMs: 100,
      onEvent: () => {},
      onError: () => {},
      logger: quiet().logger,
    });
    const started = Date.now();
    const result = await handler.handle(genuine.body, genuine.headers);
    expect(result.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('a lookup that resolves no transaction (null, undefined, a non-transaction) answers 503 over HTTP, never 409', async () => {
    const genuine = await settle('confirm-swallowed', 'APPROVED');
    // Wrappers that swallow their error, and one that answers something else than a transaction.
    const lookups: Record<string, (id: string) => Promise<unknown>> = {
      null: (id) => sandbox.client.transactions.get(`${id}-unknown`).catch(() => null),
      undefined: async () => undefined,
      'an object without a ticket': async () => ({ ok: true }),
      'a string': async () => 'APPROVED',
    };
    for (const [what, get] of Object.entries(lookups)) {
      const seen: unknown[] = [];
      const handler = createWebhookHandler({
        token: sandbox.token,
        confirmWith: { transactions: { get } } as never,
        onEvent: () => {
          throw new Error('must not run');
        },
        onError: (error) => void seen.push(error),
        logger: quiet().logger,
      });
      const server = createServer((req, res) => void handler.node(req, res));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = server.address() as AddressInfo;
        const response = await fetch(`http://127.0.0.1:${port}/webhooks`, {
          method: 'POST',
          body: genuine.body,
          headers: genuine.headers,
        });
        expect(response.status, what).toBe(503);
        expect(await response.json(), what).toMatchObject({ error: 'confirm_unavailable' });
        const error = seen[0] as WebhookConfirmationUnavailableError;
        expect(error, what).toBeInstanceOf(WebhookConfirmationUnavailableError);
        expect(error.message, what).toMatch(/not a transaction, so it proves nothing/);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    }
  });

  it('types: with confirmWith, onEvent gets a transaction that is always there', () => {
    const handler = createWebhookHandler({
      token: 't',
      confirmWith: sandbox.client,
      onEvent: (_event, { transaction }) => transaction.status, // no `?.`: it compiles only if required
      logger: quiet().logger,
    });
    expect(typeof handler.node).toBe('function');
  });

  it("a custom lookup's error text (which may hold customer data) is not repeated in the error message", async () => {
    const genuine = await settle('confirm-pii', 'APPROVED');
    const leaky = {
      transactions: {
        get: async (): Promise<Transaction> => {
          throw new TypeError('lookup failed for maria.gomez@example.com');
        },
      },
    };
    const seen: unknown[] = [];
    const handler = createWebhookHandler({
      token: sandbox.token,
      confirmWith: leaky,
      onEvent: () => {},
      onError: (error) => void seen.push(error),
      logger: quiet().logger,
    });
    expect((await handler.handle(genuine.body, genuine.headers)).status).toBe(503);
    const error = seen[0] as WebhookConfirmationUnavailableError;
    expect(error.message).toMatch(/failed \(TypeError \(see error.cause\)\): answered 503/);
    expect(`${error.message}${JSON.stringify(error)}`).not.toContain('maria');
  });

  it('refuses a confirmWith that cannot look transactions up, at creation', () => {
    expect(() => createWebhookHandler({ token: 't', onEvent: () => {}, confirmWith: {} as never })).toThrow(
      /confirmWith needs a PaymentClient/,
    );
  });
});
