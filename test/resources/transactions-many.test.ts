/** `client.transactions.getMany`: catching up after missed webhooks, through the HTTP boundary (msw). */
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  AuthenticationError,
  ConfigurationError,
  LookupAbortedError,
  LookupHaltedError,
  NotFoundError,
  RequestValidationError,
  ServerError,
  type TransactionLookupProgress,
} from '../../src/index.js';
import { transaction } from '../helpers/fixtures.js';
import { answer, fail, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();

/** The service as a table: a known reference answers its transaction after `ms`, others 404. */
function serve(known: Record<string, { status: string; ms?: number }>, broken: string[] = []) {
  let inFlight = 0;
  const seen = { max: 0 };
  answer('get', '/api/v1/transaction/:id', async ({ params }) => {
    const id = String(params.id);
    inFlight++;
    seen.max = Math.max(seen.max, inFlight);
    await delay(known[id]?.ms ?? 5);
    inFlight--;
    if (broken.includes(id)) return fail(500, { message: 'upstream down' });
    const entry = known[id];
    if (!entry) return fail(404, { message: 'Transaction not found' });
    return ok({ ...transaction, ticket: `t-${id}`, reference: id, status: entry.status });
  });
  return seen;
}

describe('client.transactions.getMany', () => {
  it('answers one result per id in input order — found, not_found, failed — and never rejects', async () => {
    serve(
      {
        'o-1': { status: 'APPROVED', ms: 40 },
        'o-2': { status: 'PENDING', ms: 1 },
        'o-4': { status: 'REJECTED' },
      },
      ['o-5'],
    );
    const results = await makeClient().transactions.getMany(['o-1', 'o-2', 'o-3', 'o-4', 'o-5', ' ']);
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ['o-1', 'found'],
      ['o-2', 'found'],
      ['o-3', 'not_found'],
      ['o-4', 'found'],
      ['o-5', 'failed'],
      [' ', 'failed'],
    ]);
    expect(results.map((r) => r.transaction?.status)).toEqual([
      'APPROVED',
      'PENDING',
      undefined,
      'REJECTED',
      undefined,
      undefined,
    ]);
    expect(results[0]!.transaction!.reference).toBe('o-1');
    expect(results[0]!.error).toBeUndefined();
    expect(results[2]!.error).toBeInstanceOf(NotFoundError);
    expect(results[4]!.error).toBeInstanceOf(ServerError);
    expect(results[5]!.error).toBeInstanceOf(RequestValidationError);
    // The blank id is refused before sending: five lookups reached the service.
    expect(recorded).toHaveLength(5);
  });

  it('never calls a transaction found that is not the one asked for', async () => {
    answer('get', '/api/v1/transaction/:id', () =>
      ok({ ...transaction, reference: 'someone-else', ticket: 't-x' }),
    );
    const [result] = await makeClient().transactions.getMany(['order-9']);
    expect(result!.outcome).not.toBe('found');
    expect(result!.transaction).toBeUndefined();
  });

  it('keeps at most `concurrency` lookups in flight and reports progress after each', async () => {
    const known = Object.fromEntries(
      Array.from({ length: 30 }, (_, i) => [`o-${i}`, { status: 'PENDING', ms: 10 }]),
    );
    const seen = serve(known);
    const progress: TransactionLookupProgress[] = [];
    const results = await makeClient().transactions.getMany([...Object.keys(known), 'gone'], {
      concurrency: 3,
      onProgress: (p) => {
        progress.push(p);
        throw new Error('a throwing callback loses nothing');
      },
    });
    expect(results).toHaveLength(31);
    expect(seen.max).toBe(3);
    expect(progress).toHaveLength(31);
    expect(progress.at(-1)).toEqual({ done: 31, total: 31, found: 30, notFound: 1, failed: 0 });
  });

  it('an aborted signal starts no lookup: the rest are failed with LookupAbortedError, settled ones kept', async () => {
    const known = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`o-${i}`, { status: 'PENDING', ms: 20 }]),
    );
    serve(known);
    const controller = new AbortController();
    const results = await makeClient().transactions.getMany(Object.keys(known), {
      concurrency: 2,
      signal: controller.signal,
      onProgress: (p) => p.done === 4 && controller.abort(new Error('shutting down')),
    });
    expect(results).toHaveLength(20);
    expect(results.slice(0, 4).every((r) => r.outcome === 'found')).toBe(true);
    const aborted = results.filter((r) => r.error instanceof LookupAbortedError);
    expect(aborted.length).toBeGreaterThanOrEqual(14);
    expect(aborted.every((r) => r.outcome === 'failed')).toBe(true);
    expect(aborted[0]!.error!.message).toMatch(/was not looked up: the lookups were aborted/);
    expect(recorded.length).toBeLessThanOrEqual(6);
  });

  it('an already aborted signal sends nothing: every id is failed with LookupAbortedError', async () => {
    serve({ a: { status: 'PENDING' } });
    const results = await makeClient().transactions.getMany(['a', 'b'], { signal: AbortSignal.abort() });
    expect(results.map((r) => [r.id, r.outcome, r.error?.name])).toEqual([
      ['a', 'failed', 'LookupAbortedError'],
      ['b', 'failed', 'LookupAbortedError'],
    ]);
    expect(recorded).toHaveLength(0);
  });

  it('refuses invalid options before any lookup, naming the fix', async () => {
    serve({});
    const tx = makeClient().transactions;
    for (const concurrency of [0, 65, 1.5]) {
      await expect(tx.getMany(['a'], { concurrency })).rejects.toThrow(
        /concurrency must be a whole number from 1 to 64/,
      );
    }
    await expect(tx.getMany(['a'], { concurency: 2 } as never)).rejects.toThrow(
      'getMany concurency: unknown option; did you mean concurrency?',
    );
    await expect(tx.getMany('a' as never)).rejects.toBeInstanceOf(ConfigurationError);
    await expect(tx.getMany(['a'], { signal: 'stop' } as never)).rejects.toThrow(/must be an AbortSignal/);
    expect(recorded).toHaveLength(0);
    expect(await tx.getMany([])).toEqual([]);
  });

  it('wrong credentials stop the lookups: one refused request per lane, not one per id', async () => {
    answer('get', '/api/v1/transaction/:id', () => fail(401, { message: 'Invalid username or password' }));
    const ids = Array.from({ length: 20 }, (_, i) => `w-${i}`);
    const results = await makeClient().transactions.getMany(ids, { concurrency: 2 });
    expect(results.map((r) => r.outcome)).toEqual(ids.map(() => 'failed'));
    expect(recorded.length).toBeLessThanOrEqual(2);
    const halted = results.filter((r) => r.error instanceof LookupHaltedError);
    expect(halted).toHaveLength(20 - recorded.length);
    const error = halted[0]!.error as LookupHaltedError;
    expect(error).toBeInstanceOf(LookupAbortedError);
    expect(error.stoppedBy).toBeInstanceOf(AuthenticationError);
    expect(error.message).toMatch(
      /was not looked up: the lookups stopped because the service refused the credentials \(HTTP 401\)/,
    );
  });

  describe('one shared pause, as createMany has (the runner of src/bulk/)', () => {
    /** Answers every id after 5 ms; `limited` once with 429 and `headers`; logs when each request came. */
    function serveLimited(limited: string, headers: Record<string, string>) {
      const log: { id: string; at: number }[] = [];
      let answered429 = 0;
      let told = false;
      answer('get', '/api/v1/transaction/:id', async ({ params }) => {
        const id = String(params.id);
        log.push({ id, at: Date.now() });
        await delay(5);
        if (id === limited && !told) {
          told = true;
          answered429 = Date.now();
          const body = { code: '00', status: 'ERROR', message: 'Too many requests' };
          return HttpResponse.json(body, { status: 429, headers });
        }
        return ok({ ...transaction, ticket: `t-${id}`, reference: id, status: 'PENDING' });
      });
      return { log, answeredAt: () => answered429 };
    }

    it('a 429 with Retry-After on one lookup pauses every lane for that long, and is not counted as a retry', async () => {
      const service = serveLimited('p-3', { 'retry-after': '1' });
      const ids = Array.from({ length: 24 }, (_, i) => `p-${i}`);
      // maxRetries 0: without the shared pause, the limited lookup would fail at once.
      const results = await makeClient({ maxRetries: 0 }).transactions.getMany(ids, { concurrency: 4 });
      expect(results.map((r) => r.outcome)).toEqual(ids.map(() => 'found'));
      const at = service.answeredAt();
      expect(at).toBeGreaterThan(0);
      // Lookups already on the wire when the 429 came back (at most one per other lane) may land
      // just after it; then nothing until the second the service asked for is over.
      const rightAfter = service.log.filter((r) => r.at >= at && r.at <= at + 50);
      expect(rightAfter.length).toBeLessThanOrEqual(3);
      expect(service.log.filter((r) => r.at > at + 50 && r.at < at + 900)).toEqual([]);
      // p-3 asked once, then once more after the pause: two requests, every other id one.
      expect(service.log.filter((r) => r.id === 'p-3')).toHaveLength(2);
      expect(service.log).toHaveLength(25);
    }, 10_000);

    it('a Retry-After beyond 60 s stops the lookups: ids not looked up fail with LookupHaltedError', async () => {
      serveLimited('q-0', { 'retry-after': '120' });
      const ids = Array.from({ length: 12 }, (_, i) => `q-${i}`);
      const results = await makeClient().transactions.getMany(ids, { concurrency: 1 });
      expect(results[0]!.outcome).toBe('failed');
      expect(results[0]!.error).toMatchObject({ status: 429 });
      const halted = results.slice(1).map((r) => r.error);
      expect(halted.every((e) => e instanceof LookupHaltedError)).toBe(true);
      expect((halted[0] as LookupHaltedError).message).toMatch(/asked to wait more than 60 s/);
      expect(recorded).toHaveLength(1);
    });
  });
});
