/**
 * Redis frozen mid-chunk (issue 26, "Redis frozen"): a redis-server of the test's own is stopped
 * (SIGSTOP) while two workers hold chunks whose creates are in flight, for longer than the job
 * locks and the leases, then woken (SIGCONT). Redis's clock ran on while it was stopped, so on
 * waking every lock and lease has run out; the workers, which could not renew, stopped sending
 * creates once their leases could have run out: the chunks move on, every item of them is looked
 * up again before any create, and each reference is paid exactly once. No worker hangs: the batch
 * settles, in input order, and the workers stop when asked.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueuePayOuts } from '../../src/bullmq/index.js';
import { notExactlyOnce, settled } from './batch.js';
import { outageAtSixthCreate } from './outage.js';
import { type OwnRedis, skipOwnRedis, startRedisServer } from './redis-server.js';
import { payout, type QueueServer, startQueueServer } from './server.js';
import { startWorker, stopWorkers, type TestQueue, type WorkerProcess } from './support.js';

const FROZEN_MS = 5_000; // longer than the workers' lock and lease (2 s, worker-child.ts)
const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));

let redis: OwnRedis;
let server: QueueServer;
let q: TestQueue;
let workers: WorkerProcess[] = [];

beforeEach(async () => {
  redis = await startRedisServer();
  server = await startQueueServer();
  const prefix = `payinout-frozen-${randomUUID().slice(0, 8)}`;
  const name = 'payouts';
  const queue = new Queue(name, { connection: { url: redis.url }, prefix });
  q = { prefix, name, queue, cleanup: () => queue.close() };
});

afterEach(async () => {
  redis.child.kill('SIGCONT');
  await stopWorkers(workers);
  workers = [];
  await q.cleanup();
  await server.close();
  await redis.stop();
});

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
  'payinout/bullmq: Redis frozen mid-chunk (itemsPerJob $itemsPerJob)',
  ({ itemsPerJob }) => {
    it('stopped longer than the leases while creates are in flight: every reference paid once, no worker hangs', async () => {
      const batch = items(40);
      const outage = outageAtSixthCreate(server, {
        begin: () => redis.child.kill('SIGSTOP'),
        end: () => void redis.child.kill('SIGCONT'),
        ms: FROZEN_MS,
      });
      workers = await Promise.all(
        ['worker-1', 'worker-2'].map((name) =>
          startWorker(q, server.url, name, { REDIS_URL: redis.url, CONCURRENCY: '2' }),
        ),
      );
      const { batchId } = await enqueuePayOuts(q.queue, batch, { itemsPerJob });
      const result = await settled(q, batchId, 45_000);
      expect(outage.began()).toBeGreaterThan(0);
      expect(outage.ended()).toBeGreaterThan(outage.began());
      expect(result).toMatchObject({ total: 40, done: 40, pending: 0, failed: 0 });
      expect(result.created + result.recovered).toBe(40);
      expect(result.results.map((r) => r.reference)).toEqual(batch.map((p) => p.reference));
      expect(notExactlyOnce(server, batch)).toEqual([]);
      // The chunks in hand moved on: their items were looked up again once Redis was back.
      expect(
        server.requests.filter((r) => r.method === 'GET' && r.time > outage.ended()).length,
      ).toBeGreaterThan(0);
      // No lease is left behind once the batch is settled.
      expect(await leasesLeft()).toEqual({});
      // Neither worker hangs: both finish what they hold and exit 0 when asked.
      await stopWorkers(workers);
      expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
      for (const w of workers) expect(w.output()).not.toMatch(/Unhandled|TypeError/);
    }, 90_000);
  },
);
