/**
 * Redis killed mid-batch (issue 24, "a dying Redis"): a redis-server of the test's own, which
 * writes every change to its append-only file before it answers, is killed (SIGKILL) while two
 * workers hold jobs whose creates are in flight, and started again from that file 3 s later, once
 * the job locks and leases it held have run out.
 * What Redis acknowledged survives; what was in flight did not happen. The workers reconnect,
 * the jobs they held run out their locks and run again, every item is looked up before any
 * create, and each reference is paid exactly once; the batch settles in input order and no
 * worker crashes or hangs.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueuePayOuts, readPayOutBatch } from '../../src/bullmq/index.js';
import { notExactlyOnce } from './batch.js';
import { type OwnRedis, skipOwnRedis, startRedisServer } from './redis-server.js';
import { payout, type QueueServer, startQueueServer } from './server.js';
import { startWorker, stopWorkers, type TestQueue, until, type WorkerProcess } from './support.js';

// Longer than the workers' job locks and leases (2 s, worker-child.ts): the jobs in hand must run again.
const DOWN_MS = 3_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));

let aof: string;
let redis: OwnRedis;
let server: QueueServer;
let q: TestQueue;
let workers: WorkerProcess[] = [];

beforeEach(async () => {
  aof = mkdtempSync(join(tmpdir(), 'payinout-aof-'));
  redis = await startRedisServer({ aof });
  server = await startQueueServer();
  const prefix = `payinout-killed-${randomUUID().slice(0, 8)}`;
  const name = 'payouts';
  const queue = new Queue(name, { connection: { url: redis.url }, prefix });
  q = { prefix, name, queue, cleanup: () => queue.close() };
});

afterEach(async () => {
  await stopWorkers(workers);
  workers = [];
  await q.cleanup();
  await server.close();
  await redis.stop();
  rmSync(aof, { recursive: true, force: true });
});

/**
 * The batch once no job of it is pending. A read while Redis is down fails (a typed error, as a
 * merchant's poll would see it) and is tried again, as that poll would be.
 */
function settledThroughOutage(batchId: string, ms: number) {
  return until(
    async () => {
      const batch = await readPayOutBatch(q.queue, batchId).catch(() => undefined);
      return batch?.pending === 0 ? batch : undefined;
    },
    ms,
    `batch ${batchId} to settle`,
  );
}

/** The leases still held in the queue's lease hash. */
async function leasesLeft(): Promise<Record<string, string>> {
  const client = new Redis(redis.url);
  try {
    return await client.hgetall(`${q.prefix}:${q.name}:payinout:leases`);
  } finally {
    client.disconnect();
  }
}

describe.skipIf(skipOwnRedis).each([{ itemsPerJob: 10 }, { itemsPerJob: 1 }])(
  'payinout/bullmq: Redis killed mid-batch and restarted from its append-only file (itemsPerJob $itemsPerJob)',
  ({ itemsPerJob }) => {
    it('every reference paid once, the batch settles in order, no worker crashes or hangs', async () => {
      const batch = items(40);
      let killedAt = 0;
      let back = 0;
      // Lookups reaching the service while Redis is down take longer than the workers trust their
      // leases (90 % of 2 s): those items' creates must not be sent by the worker that looked them up.
      server.beforeLookup = () => (killedAt && !back ? sleep(2_500) : undefined);
      // The 6th create: both workers hold jobs by then, and other items are on their way.
      server.afterCommit = async () => {
        if (killedAt || server.posted.size < 6) return;
        killedAt = Date.now();
        redis.child.kill('SIGKILL');
        setTimeout(() => {
          void redis.restart().then(() => {
            back = Date.now();
          });
        }, DOWN_MS);
      };
      workers = await Promise.all(
        ['worker-1', 'worker-2'].map((name) =>
          startWorker(q, server.url, name, { REDIS_URL: redis.url, CONCURRENCY: '2' }),
        ),
      );
      const { batchId } = await enqueuePayOuts(q.queue, batch, { itemsPerJob });
      const result = await settledThroughOutage(batchId, 60_000);
      expect(killedAt).toBeGreaterThan(0);
      expect(back).toBeGreaterThan(killedAt);
      expect(result).toMatchObject({ total: 40, done: 40, pending: 0, failed: 0 });
      expect(result.created + result.recovered).toBe(40);
      expect(result.results.map((r) => r.reference)).toEqual(batch.map((p) => p.reference));
      expect(notExactlyOnce(server, batch)).toEqual([]);
      // The jobs in hand when Redis died ran again: their items were looked up once it was back.
      expect(server.requests.filter((r) => r.method === 'GET' && r.time > back).length).toBeGreaterThan(0);
      expect(await leasesLeft()).toEqual({});
      await stopWorkers(workers);
      expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
      for (const w of workers) expect(w.output()).not.toMatch(/Unhandled|TypeError/);
    }, 120_000);
  },
);
