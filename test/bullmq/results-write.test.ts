/**
 * A job's results are written ahead of BullMQ's completion of the job, on the same connection and
 * in the same socket write, and the job returns without waiting for their answer
 * (src/bullmq/job-end.ts). Here Redis refuses that script, through a Redis proxy that puts
 * another command in its place:
 * - NOSCRIPT (the script cache flushed): ioredis sends the script again, after BullMQ completed
 *   the job. A reader in between finds neither result nor job, and reads the item as pending
 *   because its lease is still held — never as vanished; then it reads created.
 * - an error every time (Redis out of memory): the script is sent again three times, then the
 *   worker's 'error' is a ResultsNotSavedError saying what to do. The item reads pending while its
 *   lease lasts, then of unknown outcome; enqueued again under a new batchId, it is recovered.
 * In every case the PayOut is sent once. An in-process worker, a real Redis, the simulator.
 */
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import {
  createPayOutWorker,
  enqueuePayOuts,
  ResultsNotSavedError,
  readPayOutBatch,
} from '../../src/bullmq/index.js';
import { PayinoutError, PaymentClient } from '../../src/index.js';
import { type CommandAction, startRedisProxy } from './redis-proxy.js';
import { MERCHANT, payout } from './server.js';
import { queueSuite, REDIS_URL, skipQueue, until } from './support.js';

const suite = queueSuite();

/** A job's last script: payinout's batched script with a `finish` operation (chunk-scripts.ts). */
const isEndJob = (args: string[]) => /^eval(sha)?$/i.test(args[0] ?? '') && args.includes('finish');

const NO_SUCH_SCRIPT = ['EVALSHA', '0'.repeat(40), '0'];
const OUT_OF_MEMORY = [
  'EVAL',
  "return redis.error_reply('OOM command not allowed when used memory > maxmemory')",
  '0',
];

/** A worker that talks to Redis through a proxy deciding what becomes of each END_JOB. */
async function workerThrough(onEndJob: (attempt: number) => CommandAction, lockDuration = 5_000) {
  const { server, q } = suite;
  let attempts = 0;
  const proxy = await startRedisProxy(REDIS_URL, (args) =>
    isEndJob(args) ? onEndJob(++attempts) : undefined,
  );
  const worker = createPayOutWorker({
    queueName: q.name,
    connection: { url: proxy.url },
    client: new PaymentClient({ ...MERCHANT, baseUrl: server.url }),
    workerOptions: { prefix: q.prefix, lockDuration },
  });
  const errors: Error[] = [];
  worker.on('error', (error) => errors.push(error));
  const reader = new Queue(q.name, { connection: { url: REDIS_URL }, prefix: q.prefix });
  suite.closeAfter.push(
    () => worker.close(),
    () => reader.close(),
    () => proxy.close(),
  );
  await Promise.all([worker.waitUntilReady(), reader.waitUntilReady()]);
  return { reader, errors, attempts: () => attempts };
}

/** 0 once BullMQ holds no job of the queue waiting or active (completed jobs are removed). */
async function jobsLeft(): Promise<number | undefined> {
  const { queue } = suite.q;
  const left = (await queue.getActiveCount()) + (await queue.getWaitingCount());
  return left === 0 ? 0 : undefined;
}

/** The batch's state once its one PayOut is settled (done), read as any process would. */
function settledRead(reader: Queue, batchId: string, what: string) {
  return until(
    async () => {
      const state = await readPayOutBatch(reader, batchId);
      return state.done === 1 ? state : undefined;
    },
    15_000,
    what,
  );
}

describe.skipIf(skipQueue)('payinout/bullmq: Redis refuses the write of a job’s results', () => {
  for (const itemsPerJob of [1, 50]) {
    it(`itemsPerJob ${itemsPerJob}: NOSCRIPT — resent after the job completed; read pending in between, then created`, async () => {
      let release = () => {};
      const resent = new Promise<void>((resolve) => (release = resolve));
      let heldResend = false;
      const { reader, errors } = await workerThrough((attempt) => {
        if (attempt === 1) return { replace: NO_SUCH_SCRIPT };
        heldResend = true;
        return resent; // held until the reader has looked
      });
      const items = [payout(1, { reference: `noscript-${itemsPerJob}` })];
      const { batchId } = await enqueuePayOuts(suite.q.queue, items, { itemsPerJob });
      await until(async () => (heldResend ? true : undefined), 15_000, 'the results to be sent again');
      await until(jobsLeft, 10_000, 'BullMQ to complete the job');
      const between = await readPayOutBatch(reader, batchId);
      expect(between).toMatchObject({ total: 1, pending: 1, done: 0, results: [] });
      release();
      const after = await settledRead(reader, batchId, 'the result to be saved');
      expect(after).toMatchObject({ created: 1, failed: 0 });
      expect([...suite.server.posted.values()]).toEqual([1]);
      expect(errors).toEqual([]);
    }, 40_000);
  }

  it('refused on every try: one ResultsNotSavedError; pending while the lease lasts, then unknown; enqueued again, recovered', async () => {
    let refuse = true;
    const { reader, errors, attempts } = await workerThrough(
      () => (refuse ? { replace: OUT_OF_MEMORY } : undefined),
      8_000,
    );
    const items = [payout(1, { reference: 'oom-1' })];
    const { batchId } = await enqueuePayOuts(suite.q.queue, items, { itemsPerJob: 1 });
    const [error] = await until(async () => (errors.length ? errors : undefined), 20_000, 'the error');
    expect(attempts()).toBe(4);
    expect(error).toBeInstanceOf(ResultsNotSavedError);
    expect(error).toBeInstanceOf(PayinoutError);
    expect(error!.message).toMatch(
      /could not save the results of 1 settled PayOut in Redis \(4 tries; last: OOM command not allowed.*enqueue the batch again under a new batchId/,
    );
    expect(await jobsLeft()).toBe(0);
    expect(await readPayOutBatch(reader, batchId)).toMatchObject({ pending: 1, done: 0 });
    const unknown = await settledRead(reader, batchId, 'the lease to run out');
    expect(unknown.results[0]).toMatchObject({ reference: 'oom-1', outcome: 'failed' });
    expect(unknown.results[0]!.error).toMatchObject({ outcome: 'unknown' });

    refuse = false;
    const next = await enqueuePayOuts(suite.q.queue, items, { itemsPerJob: 1 });
    const again = await settledRead(reader, next.batchId, 'the PayOut to be recovered');
    expect(again).toMatchObject({ total: 1, done: 1, recovered: 1, failed: 0 });
    expect([...suite.server.posted.values()]).toEqual([1]);
    expect(errors).toHaveLength(1);
  }, 60_000);
});
