/**
 * payinout/bullmq against a real Redis, with workers as child processes settling PayOuts through
 * the simulator behind a real HTTP server: exactly one PayOut per reference whatever happens to
 * the workers or the answers, a rate limit that pauses every worker, a halt that stops the batch.
 */
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts as enqueue, readPayOutBatch } from '../../src/bullmq/index.js';
import { redisOf } from '../../src/bullmq/keys.js';
import {
  AuthenticationError,
  BatchHaltedError,
  ConnectionError,
  RequestValidationError,
} from '../../src/index.js';
import { notExactlyOnce, settled } from './batch.js';
import { MERCHANT, payout } from './server.js';
import { queueSuite, skipQueue, startWorker, storedText, until } from './support.js';

const items = (n: number, from = 1) => Array.from({ length: n }, (_, i) => payout(from + i));

const suite = queueSuite();

// Every behaviour in both modes: one job per PayOut, and chunks of 50 (the default).
describe.skipIf(skipQueue).each([1, 50])('payinout/bullmq, itemsPerJob %i', (itemsPerJob) => {
  const enqueuePayOuts: typeof enqueue = (queue, batch, options) =>
    enqueue(queue, batch, { itemsPerJob, ...options });

  it('3 workers, one SIGKILLed mid-create, 1 % of answers lost: one PayOut per reference, results in input order', async () => {
    const batch = items(150);
    const references = batch.map((p) => p.reference);
    for (const n of [7, 60, 111]) suite.server.loseAnswer.add(`bulk-${n}`);
    suite.workers = await Promise.all(
      ['worker-1', 'worker-2', 'worker-3'].map((name) => startWorker(suite.q, suite.server.url, name)),
    );
    let victim: string | undefined;
    let creates = 0;
    // The 40th create committed: the worker that sent it dies before reading the answer.
    suite.server.afterCommit = async (request) => {
      if (++creates !== 40 || victim) return;
      victim = request.worker;
      suite.workers.find((w) => w.name === request.worker)?.child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50));
    };
    const { batchId, enqueued, skipped } = await enqueuePayOuts(suite.q.queue, batch);
    expect({ enqueued, skipped }).toEqual({ enqueued: 150, skipped: 0 });
    const result = await settled(suite.q, batchId);
    expect(victim).toBeDefined();
    expect(suite.workers.find((w) => w.name === victim)?.child.signalCode).toBe('SIGKILL');
    expect(result).toMatchObject({ total: 150, done: 150, failed: 0, pending: 0 });
    expect(result.created + result.recovered).toBe(150);
    expect(result.recovered).toBeGreaterThanOrEqual(1); // the killed worker's create, found by the next one
    expect(result.results.map((r) => r.reference)).toEqual(references);
    expect(notExactlyOnce(suite.server, references)).toEqual([]);
  }, 90_000);

  it('a job BullMQ gives up on (stalled too often) still gets a result: unknown outcome, settled by a new batch', async () => {
    const batch = items(12);
    const env = { MAX_STALLED: '0' }; // the first stall fails the job
    suite.workers = await Promise.all(
      ['worker-1', 'worker-2'].map((name) => startWorker(suite.q, suite.server.url, name, env)),
    );
    let victim: string | undefined;
    suite.server.afterCommit = async (request) => {
      if (victim) return;
      victim = request.worker;
      suite.workers.find((w) => w.name === victim)?.child.kill('SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 50)); // dead before its answer is sent
    };
    const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
    const first = await settled(suite.q, batchId);
    const givenUp = first.results.filter((r) => r.error instanceof ConnectionError);
    expect(givenUp.length).toBeGreaterThanOrEqual(1);
    for (const r of givenUp) {
      expect((r.error as ConnectionError).outcome).toBe('unknown');
      expect(r.error?.message).toContain('new batchId');
    }
    expect(first.results.map((r) => r.reference)).toEqual(batch.map((p) => p.reference));
    // The create the kill answered had committed, and so may others the killed worker had in
    // flight (it holds several jobs; on a loaded machine the kill lands after more commits).
    // Each given-up reference exists at most once; the new batch must settle them all.
    const committed = givenUp.filter((r) => suite.server.payoutsFor(r.reference) === 1).length;
    expect(committed).toBeGreaterThanOrEqual(1);
    expect(givenUp.every((r) => suite.server.payoutsFor(r.reference) <= 1)).toBe(true);
    const again = await enqueuePayOuts(suite.q.queue, batch);
    const second = await settled(suite.q, again.batchId);
    expect(second.failed).toBe(0);
    expect(second).toMatchObject({
      recovered: first.created + committed,
      created: givenUp.length - committed,
    });
    expect(notExactlyOnce(suite.server, batch)).toEqual([]);
    // The dead worker's leases were taken over and released: none is left in the queue's hash.
    const redis = await redisOf(suite.q.queue);
    expect(await redis.hgetall(`${suite.q.prefix}:${suite.q.name}:payinout:leases`)).toEqual({});
  }, 90_000);

  it('enqueueing the same items again: same batch adds nothing, a new batch recovers every one', async () => {
    const batch = items(20);
    suite.workers = [await startWorker(suite.q, suite.server.url, 'worker-1')];
    const first = await enqueuePayOuts(suite.q.queue, batch, { batchId: 'payday-1' });
    expect(first).toEqual({ batchId: 'payday-1', enqueued: 20, skipped: 0 });
    await settled(suite.q, 'payday-1');
    expect(await enqueuePayOuts(suite.q.queue, batch, { batchId: 'payday-1' })).toEqual({
      batchId: 'payday-1',
      enqueued: 0,
      skipped: 20,
    });
    const again = await enqueuePayOuts(suite.q.queue, batch);
    expect(again.enqueued).toBe(20);
    const result = await settled(suite.q, again.batchId);
    expect(result).toMatchObject({ total: 20, recovered: 20, created: 0, failed: 0 });
    expect((await readPayOutBatch(suite.q.queue, 'payday-1')).created).toBe(20);
    expect(notExactlyOnce(suite.server, batch)).toEqual([]);
    // Jobs, results and batch records in Redis hold no credential of the workers' client.
    const stored = await storedText(suite.q);
    expect(stored).toContain('bulk-20');
    for (const secret of [
      MERCHANT.password,
      MERCHANT.token,
      Buffer.from(`${MERCHANT.username}:${MERCHANT.password}`).toString('base64'),
    ]) {
      expect(stored).not.toContain(secret);
    }
  }, 60_000);

  it('an invalid item is a RequestValidationError naming its index and field, and nothing is enqueued', async () => {
    const batch: unknown[] = items(5);
    batch[3] = { ...payout(4), amount: 'lots' };
    // Untyped input (JSON from elsewhere) is still checked at run time.
    const error = await enqueuePayOuts(suite.q.queue, batch as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.map((i) => i.path)).toContain('items[3].amount');
    expect((error as Error).message).toContain('items[3].amount');
    expect(await suite.q.queue.count()).toBe(0);
    const twice = await enqueuePayOuts(suite.q.queue, [payout(1), payout(1)]).catch((e: unknown) => e);
    expect((twice as RequestValidationError).issues[0]?.path).toBe('items[1].reference');
    expect(await suite.q.queue.count()).toBe(0);
  });

  it('two batches with the same references on two workers: the lease lets one send each, the other recovers', async () => {
    const batch = items(12);
    // Slow creates widen the race: without the lease both workers would look up, miss, and send.
    suite.server.beforeCommit = () => new Promise((resolve) => setTimeout(resolve, 300));
    suite.workers = await Promise.all(
      ['worker-1', 'worker-2'].map((name) => startWorker(suite.q, suite.server.url, name)),
    );
    // Chunks of 4 in chunk mode: both workers get work from both batches.
    const options = { itemsPerJob: Math.min(itemsPerJob, 4) };
    const [a, b] = await Promise.all([
      enqueuePayOuts(suite.q.queue, batch, options),
      enqueuePayOuts(suite.q.queue, batch, options),
    ]);
    const [ra, rb] = [await settled(suite.q, a!.batchId), await settled(suite.q, b!.batchId)];
    expect(ra.failed + rb.failed).toBe(0);
    expect(ra.created + rb.created).toBe(12);
    expect(ra.recovered + rb.recovered).toBe(12);
    // Both workers worked on the same references (the race the lease closes): each looked them up.
    // Which of them sends is BullMQ's scheduling: a worker whose jobs all met leased or created
    // references only recovers, and that is the contract, so the test does not require both to POST.
    const lookedUp = (worker: string) =>
      suite.server.requests.some((r) => r.method === 'GET' && r.worker === worker);
    expect([lookedUp('worker-1'), lookedUp('worker-2')]).toEqual([true, true]);
    expect(notExactlyOnce(suite.server, batch)).toEqual([]);
  }, 60_000);

  it('SIGTERM: a worker finishes the PayOuts in hand, then exits 0', async () => {
    const batch = items(8);
    suite.server.afterCommit = () => new Promise((resolve) => setTimeout(resolve, 1_000));
    const worker = await startWorker(suite.q, suite.server.url, 'worker-1');
    suite.workers = [worker];
    const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
    await until(async () => (suite.server.posted.size >= 4 ? true : undefined), 20_000, 'creates in flight');
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    const state = await readPayOutBatch(suite.q.queue, batchId);
    expect(state.created).toBe(suite.server.posted.size); // every create it sent has its result
    expect(state.pending).toBe(8 - state.created);
  }, 60_000);

  it('refused credentials halt the batch: its remaining jobs are not sent and readPayOutBatch says why', async () => {
    const batch = items(30);
    suite.server.inject = () => ({ status: 401 });
    suite.workers = await Promise.all(
      ['worker-1', 'worker-2'].map((name) => startWorker(suite.q, suite.server.url, name)),
    );
    const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
    const result = await settled(suite.q, batchId);
    expect(result).toMatchObject({ total: 30, failed: 30, pending: 0 });
    expect(result.halted).toMatch(/refused the credentials \(HTTP 401\)/);
    const errors = result.results.map((r) => r.error);
    expect(errors.every((e) => e instanceof AuthenticationError || e instanceof BatchHaltedError)).toBe(true);
    expect(errors.filter((e) => e instanceof BatchHaltedError).length).toBeGreaterThan(20);
    // At most one request per job in flight when the first 401 came back (2 workers × 4).
    expect(suite.server.requests.length).toBeLessThanOrEqual(8);
    expect(suite.server.posted.size).toBe(0);
  }, 60_000);
});
