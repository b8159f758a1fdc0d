/**
 * What a PayOut on the queue costs the merchant's Redis (issue 26): every command a redis-server
 * of the test's own receives while a batch is enqueued and settled, seen with MONITOR — the
 * commands clients send, and those Lua scripts run inside. Chunks of 50 cost at most 0.2 sent
 * and 4 executed per PayOut; one job per PayOut at most 1.3 times what BullMQ itself costs per
 * job (a bare BullMQ worker on the same server, the anchor), whatever payinout adds for leases,
 * the pause, the halt and the results.
 */
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORKER_LOCKS } from '../../src/bullmq/defaults.js';
import { enqueuePayOuts } from '../../src/bullmq/index.js';
import { notExactlyOnce } from './batch.js';
import { type OwnRedis, skipOwnRedis, startRedisServer } from './redis-server.js';
import { payout, type QueueServer, startQueueServer } from './server.js';
import { startWorker, stopWorkers, type WorkerProcess } from './support.js';

const ITEMS = 400;
/** payinout's lock defaults (src/bullmq/defaults.ts): the stalled-job checks cost what they cost in use. */
const { lockDuration, stalledInterval } = DEFAULT_WORKER_LOCKS;
const WORKER_ENV = { CONCURRENCY: '16', LOCK_MS: String(lockDuration), STALLED_MS: String(stalledInterval) };

let redis: OwnRedis;
let server: QueueServer;
let workers: WorkerProcess[] = [];
const closing: Array<() => Promise<unknown>> = [];

beforeEach(async () => {
  redis = await startRedisServer();
  server = await startQueueServer();
});

afterEach(async () => {
  await stopWorkers(workers);
  workers = [];
  for (const close of closing.splice(0)) await close();
  await server.close();
  await redis.stop();
});

interface Cost {
  /** Commands clients sent (a script is one). */
  sent: number;
  /** Commands executed: those sent, and those the scripts ran. */
  executed: number;
}

/**
 * Counts what Redis receives while `work` runs, but for the test's own polls: `done` is asked on
 * a connection of its own, whose commands are left out.
 */
async function counted(work: (poll: Redis) => Promise<void>): Promise<Cost> {
  const poll = new Redis(redis.url);
  closing.push(async () => poll.disconnect());
  const pollAddress = /addr=(\S+)/.exec(String(await poll.client('INFO')))?.[1];
  const cost = { sent: 0, executed: 0 };
  // MONITOR on a plain socket: one `+<time> [<db> <source>] "<command>" …` line per command,
  // `lua` as the source of those a script ran.
  const monitor = net.connect(redis.port, '127.0.0.1');
  closing.push(async () => monitor.destroy());
  let rest = '';
  monitor.on('data', (chunk: Buffer) => {
    const lines = (rest + chunk.toString('latin1')).split('\r\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const source = /^\+[\d.]+ \[\d+ ([^\]]+)\]/.exec(line)?.[1];
      if (!source || source === pollAddress) continue;
      cost.executed++;
      if (source !== 'lua') cost.sent++;
    }
  });
  await new Promise<void>((resolve) => monitor.write('MONITOR\r\n', () => resolve()));
  await new Promise((resolve) => setTimeout(resolve, 100)); // MONITOR is on before the work starts
  await work(poll);
  await new Promise((resolve) => setTimeout(resolve, 100)); // the last lines arrive
  return cost;
}

async function untilHashHas(poll: Redis, key: string, n: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await poll.hlen(key)) < n) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${n} results in ${key}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** payinout's cost per PayOut: one worker process settles ITEMS PayOuts in jobs of `itemsPerJob`. */
async function payinoutCost(itemsPerJob: number): Promise<Cost> {
  const prefix = `payinout-cost-${randomUUID().slice(0, 8)}`;
  const queue = new Queue('payouts', { connection: { url: redis.url }, prefix });
  closing.push(() => queue.close());
  const q = { prefix, name: 'payouts', queue, cleanup: () => queue.close() };
  workers = [await startWorker(q, server.url, 'worker-1', { REDIS_URL: redis.url, ...WORKER_ENV })];
  await queue.waitUntilReady();
  const batch = Array.from({ length: ITEMS }, (_, i) => payout(i + 1));
  const cost = await counted(async (poll) => {
    const { batchId } = await enqueuePayOuts(queue, batch, { itemsPerJob });
    await untilHashHas(poll, `${prefix}:payouts:payinout:batch:${batchId}:results`, ITEMS);
  });
  expect(notExactlyOnce(server, batch)).toEqual([]);
  return { sent: cost.sent / ITEMS, executed: cost.executed / ITEMS };
}

/** BullMQ's own cost per job: a bare worker whose jobs do nothing, completed jobs removed. */
async function anchorCost(): Promise<Cost> {
  const connection = { url: redis.url };
  const queue = new Queue('anchor', { connection });
  let done = 0;
  const worker = new Worker(
    'anchor',
    async () => {
      done++;
    },
    { connection, concurrency: 16, lockDuration, stalledInterval },
  );
  closing.push(
    () => worker.close(true), // every job is done; not forced, its blocking connection outlives the server
    () => queue.close(),
  );
  worker.on('error', () => undefined); // its connection ends with the test's redis-server
  await Promise.all([queue.waitUntilReady(), worker.waitUntilReady()]);
  const cost = await counted(async () => {
    const jobs = Array.from({ length: ITEMS }, (_, i) => ({
      name: 'job',
      data: { i },
      opts: { removeOnComplete: true, jobId: `anchor-${i}` },
    }));
    await queue.addBulk(jobs);
    const deadline = Date.now() + 60_000;
    while (done < ITEMS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  });
  expect(done).toBe(ITEMS);
  return { sent: cost.sent / ITEMS, executed: cost.executed / ITEMS };
}

describe.skipIf(skipOwnRedis)('payinout/bullmq: Redis commands per PayOut', () => {
  it('chunks of 50: at most 0.2 commands sent and 4 executed per PayOut', async () => {
    const cost = await payinoutCost(50);
    expect(cost.sent).toBeLessThanOrEqual(0.2);
    expect(cost.executed).toBeLessThanOrEqual(4);
  }, 90_000);

  it('one job per PayOut: at most 1.3 times the commands BullMQ itself spends per job, two round trips more', async () => {
    const anchor = await anchorCost();
    const cost = await payinoutCost(1);
    expect(cost.executed).toBeLessThanOrEqual(1.3 * anchor.executed);
    // payinout's own round trips: two scripts per job (START_JOB, END_JOB), nothing per request.
    expect(cost.sent).toBeLessThanOrEqual(anchor.sent + 2.1);
  }, 90_000);
});
