/**
 * client.payout.createMany through a real node:http server in front of the simulator, with lost
 * answers, 503s and 429s injected: exactly one payout per reference, every outcome right.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BatchAbortedError,
  ConfigurationError,
  type PayOutBatchProgress,
  type PayOutCreateParams,
  ReferenceConflictError,
  RequestValidationError,
} from '../../src/index.js';
import { type BulkServer, batch, exactlyOnce, payout, startBulkServer } from './server.js';

let server: BulkServer;
beforeEach(async () => {
  server = await startBulkServer();
});
afterEach(() => server.close());

const references = (items: { reference: string }[]) => items.map((i) => i.reference);

describe('createMany under faults', () => {
  it('creates each reference exactly once despite lost answers, 503s and 429s, and a re-run sends nothing', async () => {
    const items = batch(24);
    server.inject(
      { method: 'POST', reference: 'bulk-3', fault: { kind: 'drop-after-commit' } },
      { method: 'POST', reference: 'bulk-5', fault: { kind: 'status', status: 503 }, times: 2 },
      {
        method: 'POST',
        reference: 'bulk-8',
        fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      },
      {
        method: 'GET',
        reference: 'bulk-11',
        fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      },
      { method: 'GET', reference: 'bulk-13', fault: { kind: 'drop' } },
      { method: 'POST', reference: 'bulk-17', fault: { kind: 'drop-after-commit' } },
      { method: 'POST', reference: 'bulk-17', fault: { kind: 'drop' } },
      { method: 'POST', reference: 'bulk-20', fault: { kind: 'status', status: 502 } },
    );
    const progress: PayOutBatchProgress[] = [];
    const client = server.client();
    const results = await client.payout.createMany(items, { onProgress: (p) => progress.push(p) });

    expect(references(results)).toEqual(references(items));
    expect(results.map((r) => r.outcome)).toEqual(items.map(() => 'created'));
    for (const r of results) expect(r.ticket).toBe(server.sandbox.getTransaction(r.reference)?.ticket);
    expect(exactlyOnce(server, references(items))).toEqual([]);
    expect(progress).toHaveLength(24);
    expect(progress.at(-1)).toEqual({ done: 24, total: 24, created: 24, recovered: 0, failed: 0 });
    expect(progress.map((p) => p.done)).toEqual(items.map((_, i) => i + 1));

    // The same batch again, with more lost answers: all recovered, no POST at all.
    server.inject({ method: 'GET', reference: 'bulk-4', fault: { kind: 'status', status: 503 } });
    const logged = server.log.length;
    const again = await client.payout.createMany(items, { concurrency: 8 });
    expect(again.map((r) => r.outcome)).toEqual(items.map(() => 'recovered'));
    expect(again.map((r) => r.ticket)).toEqual(results.map((r) => r.ticket));
    expect(again.every((r) => r.status === 'PENDING')).toBe(true);
    expect(server.log.slice(logged).filter((line) => line.startsWith('POST'))).toEqual([]);
    expect(exactlyOnce(server, references(items))).toEqual([]);
  }, 30_000);

  it('reports created, not recovered, when its own create committed and both the answer and the lookup after it were lost', async () => {
    server.inject(
      { method: 'POST', reference: 'bulk-2', fault: { kind: 'drop-after-commit' } },
      // The batch's first lookup passes; the reconciling lookups after the lost answer are dropped.
      { method: 'GET', reference: 'bulk-2', fault: { kind: 'drop' }, skip: 1, times: 2 },
    );
    const results = await server.client().payout.createMany(batch(3));
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created']);
    expect(results[1]!.ticket).toBe(server.sandbox.getTransaction('bulk-2')?.ticket);
    expect(server.log.filter((l) => l.endsWith(' bulk-2'))).toEqual([
      'GET bulk-2',
      'POST bulk-2',
      'GET bulk-2',
      'GET bulk-2',
      'GET bulk-2',
    ]);
    expect(exactlyOnce(server, references(batch(3)))).toEqual([]);
  });

  it('pauses the whole batch on a 429 with Retry-After instead of failing items', async () => {
    server.inject({
      method: 'GET',
      reference: 'bulk-2',
      fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
    });
    const results = await server.client().payout.createMany(batch(8), { concurrency: 4 });
    expect(results.every((r) => r.outcome === 'created')).toBe(true);
    const limited = server.log.indexOf('GET bulk-2');
    const answeredAt = server.times[limited]!;
    // Each of the 3 other lanes may have one request on the wire when the 429 comes back; then
    // nothing for ~1 s. Counted, not timed: a loaded machine may deliver those requests late.
    const beforeResume = server.times.filter((t, i) => i > limited && t < answeredAt + 900);
    expect(beforeResume.length).toBeLessThanOrEqual(3);
    expect(exactlyOnce(server, references(batch(8)))).toEqual([]);
  }, 20_000);

  it('fails a reference reused with other details, naming the field, and sends nothing for it', async () => {
    const client = server.client();
    await client.payout.createMany([payout(1), payout(2), payout(3)]);
    const reused = [
      payout(1, { amount: 99_999 }),
      payout(2, { customer_data: { ...payout(2).customer_data, legal_doc: '55555555' } }),
      payout(3),
    ];
    const posts = server.log.filter((l) => l.startsWith('POST')).length;
    const results = await client.payout.createMany(reused);
    expect(results.map((r) => r.outcome)).toEqual(['failed', 'failed', 'recovered']);
    const [amount, doc] = results.map((r) => r.error);
    expect(amount).toBeInstanceOf(ReferenceConflictError);
    expect((amount as ReferenceConflictError).field).toBe('amount');
    expect(amount?.message).toMatch(/already exists .* different amount/);
    expect((doc as ReferenceConflictError).field).toBe('customer_data.legal_doc');
    expect(doc?.message).not.toContain('55555555'); // customer data never reaches a message
    expect(server.log.filter((l) => l.startsWith('POST')).length).toBe(posts);
  });

  it('sends one reference given twice in one batch once', async () => {
    const results = await server
      .client()
      .payout.createMany([payout(1), payout(1), payout(2)], { concurrency: 3 });
    expect(results.map((r) => r.outcome)).toEqual(['created', 'recovered', 'created']);
    expect(exactlyOnce(server, ['bulk-1', 'bulk-2'])).toEqual([]);
  });

  it('validates every item like payout.create and sends nothing for an invalid one', async () => {
    const bad = {
      ...payout(2),
      currency: 'PEN' as const,
      customer_data: { ...payout(2).customer_data, account_type: 'X' },
    } as unknown as PayOutCreateParams; // what a JavaScript caller can send
    const results = await server.client().payout.createMany([payout(1), bad, payout(3)]);
    expect(results.map((r) => r.outcome)).toEqual(['created', 'failed', 'created']);
    const error = results[1]!.error as RequestValidationError;
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues.map((i) => i.path)).toEqual(['currency', 'customer_data.account_type']);
    expect(server.log.some((l) => l.endsWith('bulk-2'))).toBe(false);
  });
});

describe('createMany validation in one pass', () => {
  it('an empty reference has one issue, and an item that is not an object says so in plain English', async () => {
    const empty = { ...payout(2), reference: '' };
    const results = await server
      .client()
      .payout.createMany([payout(1), empty, null as unknown as PayOutCreateParams]);
    expect(results.map((r) => r.outcome)).toEqual(['created', 'failed', 'failed']);
    const emptyIssues = (results[1]!.error as RequestValidationError).issues;
    // Not also "cannot be '.' or '..'": that would name a mistake the caller did not make.
    expect(emptyIssues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'reference: must be a non-empty string',
    ]);
    expect((results[2]!.error as RequestValidationError).issues[0]!.message).toBe('must be an object');
    expect(server.log.filter((l) => l.startsWith('POST'))).toHaveLength(1);
  });

  it('reports the CLABE checks of a Mexico item that also misses another field', async () => {
    const mx = {
      ...payout(1),
      country: 'MX',
      currency: 'MXN',
      payment_method: 'SPEI',
      customer_data: {
        ...payout(1).customer_data,
        legal_doc_type: 'RFC',
        bank: undefined,
        account_type: 'CLABE',
        account_number: '123',
        clabe_number: '456',
      },
    } as unknown as PayOutCreateParams;
    const [result] = await server.client().payout.createMany([mx]);
    const error = result!.error as RequestValidationError;
    expect(error.issues.map((i) => i.path)).toEqual([
      'customer_data.bank',
      'customer_data.account_number',
      'customer_data.clabe_number',
    ]);
    expect(server.log).toEqual([]);
  });
});

describe('createMany abort and options', () => {
  it('starts no new item after abort, settles the items in flight, and fails the rest as not sent', async () => {
    const items = batch(12);
    const controller = new AbortController();
    const results = await server.client().payout.createMany(items, {
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done === 3) controller.abort();
      },
    });
    expect(references(results)).toEqual(references(items));
    const created = results.filter((r) => r.outcome === 'created');
    const aborted = results.filter((r) => r.outcome === 'failed');
    // The three settled before the abort, plus at most the one still in flight.
    expect(created.length).toBeGreaterThanOrEqual(3);
    expect(created.length).toBeLessThanOrEqual(4);
    expect(created.length + aborted.length).toBe(12);
    for (const r of aborted) {
      expect(r.error).toBeInstanceOf(BatchAbortedError);
      expect(server.posted.get(r.reference)).toBeUndefined();
    }
    expect(exactlyOnce(server, references(created))).toEqual([]);
  });

  it('returns every item as not sent when the signal is already aborted', async () => {
    const results = await server.client().payout.createMany(batch(3), { signal: AbortSignal.abort() });
    expect(results.every((r) => r.error instanceof BatchAbortedError)).toBe(true);
    expect(server.log).toEqual([]);
  });

  it('rejects invalid options before sending anything', async () => {
    const client = server.client();
    await expect(client.payout.createMany(batch(1), { concurrency: 0 })).rejects.toBeInstanceOf(
      ConfigurationError,
    );
    await expect(client.payout.createMany(batch(1), { concurrency: 1.5 })).rejects.toThrow(/whole number/);
    // A misspelt option would otherwise be ignored: refused like getMany's, every problem at once.
    await expect(
      client.payout.createMany(batch(1), { concurency: 8, onProgress: 'log' } as never),
    ).rejects.toThrow(
      'createMany concurency: unknown option; did you mean concurrency?; createMany option onProgress must be a function; got string. Nothing was sent.',
    );
    await expect(client.payout.createMany(batch(1), { signal: {} } as never)).rejects.toThrow(
      /signal must be an AbortSignal/,
    );
    // The runner's own parts are no options of createMany.
    await expect(client.payout.createMany(batch(1), { sink: () => {} } as never)).rejects.toThrow(
      'createMany sink: unknown option',
    );
    expect(await client.payout.createMany([])).toEqual([]);
    expect(server.log).toEqual([]);
  });
});
