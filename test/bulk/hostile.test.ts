/**
 * createMany when the batch itself is refused (credentials, configuration, "come back in an hour")
 * and under hostile answers: an unreadable 2xx, someone else's transaction, a list of two, odd
 * Retry-After values, an abort between lookup and create. Through a real local server.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  AmbiguousTransactionError,
  AuthenticationError,
  BatchAbortedError,
  BatchHaltedError,
  ConfigurationError,
  ConnectionError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
} from '../../src/index.js';
import { type BulkServer, batch, exactlyOnce, MERCHANT, payout, startBulkServer } from './server.js';

let server: BulkServer;
beforeEach(async () => {
  server = await startBulkServer();
});
afterEach(() => server.close());

const ALWAYS = 1_000_000;
const posts = (reference: string) => server.log.filter((l) => l === `POST ${reference}`).length;
const envelope = (data: unknown) => JSON.stringify({ code: '01', status: 'SUCCESS', message: '', data });

describe('a batch-wide failure stops the batch', () => {
  it('wrong credentials: one refused request per worker, no create, the rest failed as not sent', async () => {
    server.inject({ fault: { kind: 'status', status: 401 }, times: ALWAYS });
    const results = await server.client().payout.createMany(batch(40), { concurrency: 4 });
    expect(results.map((r) => r.outcome)).toEqual(batch(40).map(() => 'failed'));
    // Only the requests already started when the first 401 came back.
    expect(server.log.length).toBeLessThanOrEqual(4);
    expect(server.log.every((l) => l.startsWith('GET'))).toBe(true);
    const refused = results.filter((r) => r.error instanceof AuthenticationError);
    const halted = results.filter((r) => r.error instanceof BatchHaltedError);
    expect(refused.length).toBe(server.log.length);
    expect(refused.length + halted.length).toBe(40);
    const notSent = halted[0]!.error as BatchHaltedError;
    expect(notSent).toBeInstanceOf(BatchAbortedError); // code that re-runs aborted items handles it
    expect(notSent.stoppedBy).toBeInstanceOf(AuthenticationError);
    expect(notSent.message).toMatch(/was not sent: the batch stopped .*refused the credentials \(HTTP 401\)/);
    expect(notSent.message).toContain('Nothing was sent for it');
    expect(notSent.message).not.toContain(MERCHANT.password);
  });

  it('a 403 on create after a good lookup stops the batch after that one create', async () => {
    server.inject({ method: 'POST', fault: { kind: 'status', status: 403 }, times: ALWAYS });
    const results = await server.client().payout.createMany(batch(10), { concurrency: 1 });
    expect(results[0]!.error).toBeInstanceOf(AuthenticationError);
    expect(results.slice(1).every((r) => r.error instanceof BatchHaltedError)).toBe(true);
    expect(server.log.filter((l) => l.startsWith('POST'))).toEqual(['POST bulk-1']);
  });

  it('a Retry-After beyond 60 s stops the batch instead of pausing it for hours', async () => {
    server.inject({
      method: 'GET',
      reference: 'bulk-1',
      fault: { kind: 'status', status: 429, headers: { 'retry-after': '3600' } },
    });
    const started = Date.now();
    const results = await server.client().payout.createMany(batch(5), { concurrency: 1 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(results[0]!.error).toBeInstanceOf(RateLimitError);
    const rest = results.slice(1).map((r) => r.error as BatchHaltedError);
    expect(rest.every((e) => e instanceof BatchHaltedError)).toBe(true);
    expect(rest[0]!.message).toContain('asked to wait more than 60 s');
    expect(server.log).toEqual(['GET bulk-1']);
  });

  it('a per-item refusal (404 on create) does not stop the batch', async () => {
    server.inject({ method: 'POST', reference: 'bulk-2', fault: { kind: 'status', status: 404 } });
    const results = await server.client().payout.createMany(batch(4), { concurrency: 1 });
    expect(results.map((r) => r.outcome)).toEqual(['created', 'failed', 'created', 'created']);
  });
});

describe('per-item retries follow maxRetries', () => {
  it("uses the client's maxRetries, and the batch's own when given", async () => {
    server.inject({ method: 'POST', reference: 'bulk-1', fault: { kind: 'status', status: 503 }, times: 3 });
    const once = await server.client({ maxRetries: 0 }).payout.createMany([payout(1)]);
    expect(once[0]!.error).toBeInstanceOf(ServerError);
    expect(posts('bulk-1')).toBe(1);

    const again = await server.client({ maxRetries: 0 }).payout.createMany([payout(1)], { maxRetries: 2 });
    expect(again[0]!.outcome).toBe('created');
    expect(posts('bulk-1')).toBe(4);
    expect(exactlyOnce(server, ['bulk-1'])).toEqual([]);
  }, 20_000);

  it('refuses a bad maxRetries before sending anything', async () => {
    const client = server.client();
    await expect(client.payout.createMany(batch(1), { maxRetries: -1 })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(client.payout.createMany(batch(1), { maxRetries: 1.5 })).rejects.toThrow(/whole number/);
    expect(server.log).toEqual([]);
  });
});

describe('hostile answers', () => {
  it('never resends a create the service answered 2xx to, even when no lookup shows it', async () => {
    const html = '<html><body>OK</body></html>';
    server.inject({
      method: 'POST',
      reference: 'bulk-1',
      fault: { kind: 'status', status: 200, headers: { 'content-type': 'text/html' }, body: html },
    });
    const results = await server.client({ maxRetries: 3 }).payout.createMany([payout(1)]);
    const error = results[0]!.error as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcome).toBe('unknown');
    expect(error.accepted).toBe(true);
    expect(posts('bulk-1')).toBe(1);
  }, 20_000);

  it('an unreadable 2xx after a commit is found by lookup: created once', async () => {
    server.inject({ method: 'POST', reference: 'bulk-2', fault: { kind: 'garbage-after-commit' } });
    const results = await server.client().payout.createMany(batch(3));
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created']);
    expect(results[1]!.ticket).toBe(server.sandbox.getTransaction('bulk-2')?.ticket);
    expect(exactlyOnce(server, ['bulk-1', 'bulk-2', 'bulk-3'])).toEqual([]);
  });

  it("a create answer describing another PayOut is not taken as this item's ticket", async () => {
    const answer = envelope({
      ticket: 'T-other',
      date: '2025-01-15 10:30:00',
      transaction: { reference: 'someone-else', amount: 1, currency: 'COP', payment_method: 'BANK_TRANSFER' },
    });
    server.inject({
      method: 'POST',
      reference: 'bulk-1',
      fault: { kind: 'status', status: 200, body: answer },
    });
    const results = await server.client().payout.createMany([payout(1)]);
    const error = results[0]!.error as ConnectionError;
    expect(results[0]!.ticket).toBeUndefined();
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.outcome).toBe('unknown');
    expect(error.message).toContain('T-other'); // named, never taken as this item's ticket
    expect(posts('bulk-1')).toBe(1);
  });

  it("someone else's transaction answered for the reference is not a recovery; nothing is sent", async () => {
    const p = payout(2);
    const other = {
      ticket: 'bulk-2', // matches the looked-up id, as a ticket
      reference: 'someone-else',
      type_transaction: 'PAYOUT',
      amount: p.amount,
      currency: p.currency,
      status: 'APPROVED',
      date: '2025-01-15 10:30:00',
      customer: { legal_doc: p.customer_data.legal_doc, legal_doc_type: 'CC' },
    };
    server.inject({
      method: 'GET',
      reference: 'bulk-2',
      fault: { kind: 'status', status: 200, body: envelope(other) },
    });
    const results = await server.client().payout.createMany([payout(1), p]);
    expect(results[0]!.outcome).toBe('created');
    expect(results[1]!.outcome).toBe('failed');
    expect(results[1]!.error).toBeInstanceOf(ResponseValidationError);
    expect(results[1]!.error?.message).toMatch(/whose reference is not 'bulk-2'.*cannot tell/);
    expect(posts('bulk-2')).toBe(0);
  });

  it('a list of two for one reference fails the item as ambiguous and sends nothing', async () => {
    const tx = (ticket: string) => ({ ticket, reference: 'bulk-1', amount: 10_001, currency: 'COP' });
    server.inject({
      method: 'GET',
      reference: 'bulk-1',
      fault: { kind: 'status', status: 200, body: envelope([tx('T-1'), tx('T-2')]) },
    });
    const results = await server.client().payout.createMany([payout(1)]);
    expect(results[0]!.error).toBeInstanceOf(AmbiguousTransactionError);
    expect(posts('bulk-1')).toBe(0);
  });

  it('a negative or unreadable Retry-After is ignored, not honoured as "now" forever', async () => {
    server.inject(
      {
        method: 'GET',
        reference: 'bulk-1',
        fault: { kind: 'status', status: 429, headers: { 'retry-after': '-5' } },
      },
      {
        method: 'GET',
        reference: 'bulk-2',
        fault: { kind: 'status', status: 503, headers: { 'retry-after': '0' } },
        times: ALWAYS,
      },
    );
    const results = await server.client().payout.createMany(batch(2), { concurrency: 1 });
    expect(results[0]!.outcome).toBe('created');
    // A 503 that always says "retry now" spends the retry budget (2), not 30 rate-limit pauses.
    expect(results[1]!.error).toBeInstanceOf(ServerError);
    expect(server.log.filter((l) => l === 'GET bulk-2')).toHaveLength(3);
    expect(exactlyOnce(server, ['bulk-1'])).toEqual([]);
  }, 20_000);

  it('an abort between lookup and create sends nothing for a fresh item', async () => {
    const controller = new AbortController();
    server.inject({
      method: 'GET',
      reference: 'bulk-1',
      fault: { kind: 'hook', hook: () => controller.abort() },
    });
    const results = await server
      .client()
      .payout.createMany(batch(2), { signal: controller.signal, concurrency: 1 });
    expect(results.map((r) => r.error)).toEqual([
      expect.any(BatchAbortedError),
      expect.any(BatchAbortedError),
    ]);
    expect(server.log).toEqual(['GET bulk-1']);
  });

  it('an abort before a retry of a lost create does not claim nothing was sent', async () => {
    const controller = new AbortController();
    server.inject(
      { method: 'POST', reference: 'bulk-1', fault: { kind: 'drop' } },
      // The create's own reconciling lookup (after the batch's first) aborts the batch.
      {
        method: 'GET',
        reference: 'bulk-1',
        skip: 1,
        fault: { kind: 'hook', hook: () => controller.abort() },
      },
    );
    const results = await server.client().payout.createMany([payout(1)], { signal: controller.signal });
    const error = results[0]!.error;
    expect(error).not.toBeInstanceOf(BatchAbortedError);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(posts('bulk-1')).toBe(1);
  }, 20_000);
});
