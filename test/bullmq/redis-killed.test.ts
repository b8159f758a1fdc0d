/**
 * Redis killed mid-batch (issue 24, "a dying Redis"): a redis-server of the test's own is killed
 * (SIGKILL) while two workers hold jobs whose creates are in flight, and started again.
 * - With an append-only file written before Redis answers, it comes back 3 s later, once the job
 *   locks and leases it held have run out, with what it acknowledged: the workers reconnect, the
 *   jobs they held run again, every item looked up before any create; each reference is paid
 *   once and the batch settles in input order.
 * - Without persistence it comes back empty: the batch is forgotten, the workers carry on, and
 *   the same PayOuts enqueued again are each looked up — those already sent recovered, the rest
 *   created — so nothing is paid twice across the loss.
 * No worker crashes or hangs in either case.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueuePayOuts } from '../../src/bullmq/index.js';
import { notExactlyOnce, settled } from './batch.js';
import { outageAtSixthCreate } from './outage.js';
import { type OwnRedis, skipOwnRedis, startRedisServer } from './redis-server.js';
import { payout, type QueueServer, startQueueServer } from './server.js';
import { startWorker, stopWorkers, type TestQueue, until, type WorkerProcess } from './support.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));

let aof: string | undefined;
let redis: OwnRedis | undefined;
let server: QueueServer;
let q: TestQueue | undefined;
let workers: WorkerProcess[] = [];

beforeEach(async () => {
  server = await startQueueServer();
});

afterEach(async () => {
  await stopWorkers(workers);
  workers = [];
  await q?.cleanup();
  await server.close();
  await redis?.stop();
  if (aof) rmSync(aof, { recursive: true, force: true });
  [aof, redis, q] = [undefined, undefined, undefined];
});

/** A Redis of the test's own (`persisted`: with its append-only file), its queue and two workers. */
async function start({ persisted }: { persisted: boolean }): Promise<{ redis: OwnRedis; q: TestQueue }> {
  aof = persisted ? mkdtempSync(join(tmpdir(), 'payinout-aof-')) : undefined;
  const own = await startRedisServer(aof ? { aof } : {});
  const prefix = `payinout-killed-${randomUUID().slice(0, 8)}`;
  const name = 'payouts';
  const queue = new Queue(name, { connection: { url: own.url }, prefix });
  const test = { prefix, name, queue, cleanup: () => queue.close() };
  [redis, q] = [own, test];
  workers = await Promise.all(
    ['worker-1', 'worker-2'].map((worker) =>
      startWorker(test, server.url, worker, { REDIS_URL: own.url, CONCURRENCY: '2' }),
    ),
  );
  return { redis: own, q: test };
}

/** The leases still held in the queue's lease hash. */
async function leasesLeft(own: OwnRedis, test: TestQueue): Promise<Record<string, string>> {
  const client = new Redis(own.url);
  try {
    return await client.hgetall(`${test.prefix}:${test.name}:payinout:leases`);
  } finally {
    client.disconnect();
  }
}

/** Redis killed (SIGKILL) at the batch's 6th create, and started again `ms` later. */
function killedAtSixthCreate(own: OwnRedis, ms: number) {
  return outageAtSixthCreate(server, {
    begin: () => own.child.kill('SIGKILL'),
    end: () => own.restart(),
    ms,
  });
}

/** Both workers finish what they hold and exit 0 when asked, without a crash. */
async function workersExitCleanly(): Promise<void> {
  await stopWorkers(workers);
  expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  for (const w of workers) {
    expect(w.output()).not.toMatch(/Unhandled|TypeError/);
    // The worker's own warnings (no 'error' listener of the app's): each kind once, not once per job held.
    for (const kind of [/could not renew lock for job/g, /Missing lock for job/g, /Missing key for job/g]) {
      expect((w.output().match(kind) ?? []).length, w.output()).toBeLessThanOrEqual(1);
    }
  }
}

describe.skipIf(skipOwnRedis).each([{ itemsPerJob: 10 }, { itemsPerJob: 1 }])(
  'payinout/bullmq: Redis killed mid-batch (itemsPerJob $itemsPerJob)',
  ({ itemsPerJob }) => {
    it('restarted from its append-only file: every reference paid once, the batch settles in order, no worker crashes or hangs', async () => {
      const batch = items(40);
      const { redis: own, q: test } = await start({ persisted: true });
      // Down longer than the workers' job locks and leases (2 s, worker-child.ts): the jobs in hand must run again.
      const outage = killedAtSixthCreate(own, 3_000);
      const { batchId } = await enqueuePayOuts(test.queue, batch, { itemsPerJob });
      const result = await settled(test, batchId, 60_000, { redisMayBeAway: true });
      expect(outage.ended()).toBeGreaterThan(outage.began());
      expect(outage.began()).toBeGreaterThan(0);
      expect(result).toMatchObject({ total: 40, done: 40, pending: 0, failed: 0 });
      expect(result.created + result.recovered).toBe(40);
      expect(result.results.map((r) => r.reference)).toEqual(batch.map((p) => p.reference));
      expect(notExactlyOnce(server, batch)).toEqual([]);
      // The jobs in hand when Redis died ran again: their items were looked up once it was back.
      const lookupsAfter = server.requests.filter((r) => r.method === 'GET' && r.time > outage.ended());
      expect(lookupsAfter.length).toBeGreaterThan(0);
      expect(await leasesLeft(own, test)).toEqual({});
      await workersExitCleanly();
    }, 120_000);

    it('restarted empty (no persistence): the workers carry on, and the same PayOuts enqueued again are each paid once', async () => {
      const batch = items(40);
      const { redis: own, q: test } = await start({ persisted: false });
      const outage = killedAtSixthCreate(own, 1_000);
      await enqueuePayOuts(test.queue, batch, { itemsPerJob });
      // The batch's jobs, leases and results went with Redis's memory; what was in flight ends.
      await until(async () => (outage.ended() ? true : undefined), 30_000, 'Redis to be back');
      await sleep(3_000);
      const sentBefore = server.posted.size;
      expect(sentBefore).toBeGreaterThanOrEqual(6);
      // A merchant enqueues the same PayOuts again: each already sent is looked up and recovered.
      const again = await enqueuePayOuts(test.queue, batch, { itemsPerJob });
      const result = await settled(test, again.batchId, 60_000, { redisMayBeAway: true });
      expect(result).toMatchObject({ total: 40, done: 40, pending: 0, failed: 0 });
      expect(result.recovered).toBe(sentBefore);
      expect(result.created).toBe(40 - sentBefore);
      expect(result.results.map((r) => r.reference)).toEqual(batch.map((p) => p.reference));
      expect(notExactlyOnce(server, batch)).toEqual([]);
      await workersExitCleanly();
    }, 120_000);
  },
);
