/**
 * Chunked jobs (`itemsPerJob`): the option checked before anything is enqueued, chunks of the
 * size asked, and enqueueing again — the same items or more — adds only the references the batch
 * does not hold, whatever chunks they were in. No worker: what Redis holds is read directly.
 */
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts, readPayOutBatch } from '../../src/bullmq/index.js';
import { RequestValidationError } from '../../src/index.js';
import { payout } from './server.js';
import { queueSuite, skipQueue } from './support.js';

const items = (n: number, from = 1) => Array.from({ length: n }, (_, i) => payout(from + i));
const suite = queueSuite();

describe.skipIf(skipQueue)('enqueuePayOuts: itemsPerJob', () => {
  for (const itemsPerJob of [0, 1.5, 1001, '5', null]) {
    it(`itemsPerJob ${JSON.stringify(itemsPerJob)} is refused, nothing enqueued`, async () => {
      const error = await enqueuePayOuts(suite.q.queue, items(3), { itemsPerJob } as never).catch((e) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      const { issues } = error as RequestValidationError;
      expect(issues.map((i) => i.path)).toEqual(['itemsPerJob']);
      expect(issues[0]?.message).toMatch(/^must be a whole number from 1 to 1000; got /);
      expect(await suite.q.queue.count()).toBe(0);
    });
  }

  it('an unknown option names the closest known one; a bad batchId is refused; nothing enqueued', async () => {
    const error = await enqueuePayOuts(suite.q.queue, items(2), {
      itemPerJob: 5,
      batchId: 'a b',
    } as never).catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toContain('itemPerJob');
    expect((error as Error).message).toContain('did you mean itemsPerJob?');
    expect((error as Error).message).toMatch(/batchId.*must be 1-100 letters/);
    expect(await suite.q.queue.count()).toBe(0);
  });

  it('120 items in chunks of 50 are 3 jobs in input order; 130 again under the batch add 10 in one more job', async () => {
    const first = await enqueuePayOuts(suite.q.queue, items(120), { batchId: 'chunks-1', itemsPerJob: 50 });
    expect(first).toEqual({ batchId: 'chunks-1', enqueued: 120, skipped: 0 });
    const jobs = await suite.q.queue.getJobs(['waiting']);
    expect(jobs.map((j) => (j.data as { items: unknown[] }).items.length).sort()).toEqual([20, 50, 50]);
    const again = await enqueuePayOuts(suite.q.queue, items(130), { batchId: 'chunks-1', itemsPerJob: 50 });
    expect(again).toEqual({ batchId: 'chunks-1', enqueued: 10, skipped: 120 });
    expect(await suite.q.queue.count()).toBe(4);
    const same = await enqueuePayOuts(suite.q.queue, items(130), { batchId: 'chunks-1', itemsPerJob: 7 });
    expect(same).toEqual({ batchId: 'chunks-1', enqueued: 0, skipped: 130 });
    expect(await suite.q.queue.count()).toBe(4);
    const state = await readPayOutBatch(suite.q.queue, 'chunks-1');
    expect(state).toMatchObject({ total: 130, pending: 130, done: 0 });
  });

  it('a chunk job removed from the queue before it ran: its items read as failed, outcome unknown', async () => {
    await enqueuePayOuts(suite.q.queue, items(10), { batchId: 'chunks-2', itemsPerJob: 5 });
    const [job] = await suite.q.queue.getJobs(['waiting'], 0, 0, true);
    await job!.remove();
    const state = await readPayOutBatch(suite.q.queue, 'chunks-2');
    expect(state).toMatchObject({ total: 10, done: 5, failed: 5, pending: 5 });
    for (const r of state.results) expect(r.error?.message).toContain('no longer on the queue');
  });
});
