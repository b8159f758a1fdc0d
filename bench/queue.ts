/**
 * The queue (payinout/bullmq): PayOuts per second with 1, 2 and 4 worker processes against the
 * simulator (own process), beside createMany in one process on the same simulator; each worker's
 * peak RSS; and the time from SIGKILL of a worker holding jobs to the moment another has settled
 * them (payinout's defaults: lockDuration 10 s, stalledInterval 5 s; and a 2 s lock).
 * Needs Redis (REDIS_URL or 127.0.0.1:6379); every run uses its own key prefix and deletes it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type * as QueueSdk from '../src/bullmq/index.js';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { customer } from './fixtures.js';
import { median } from './stats.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface QueueRate {
  workers: number;
  /** PayOuts per second through the queue: enqueue to the last result, medians of rounds. */
  queue: number;
  /** createMany in this process, same items, concurrency = workers × 16 (at most 64). */
  createMany: number;
  /** Highest peak RSS among the worker processes. */
  workerRssMb: number;
}

export interface QueueFailover {
  lockMs: number;
  /** SIGKILL of a worker holding jobs → every job of the batch settled (by the other worker). */
  seconds: number;
}

const payout = (run: string, i: number) => ({
  payment_method: 'BANK_TRANSFER' as const,
  reference: `bq-${run}-${i}`,
  amount: 10_000 + (i % 1000),
  currency: 'COP' as const,
  country: 'CO' as const,
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  customer_data: {
    ...customer,
    bank: 'BANCOLOMBIA',
    account_number: String(10_000_000_000 + i),
    account_type: 'AHORRO' as const,
  },
});

export async function redisReachable(): Promise<boolean> {
  const redis = new Redis(REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

interface Setup {
  sdk: typeof Sdk;
  bullmq: typeof QueueSdk;
  env: Record<string, string>;
  prefix: string;
}

export async function benchQueue(sdk: typeof Sdk, items = 1_000, rounds = 2) {
  const bullmq = (await import(pathToFileURL('dist/bullmq/index.js').href)) as typeof QueueSdk;
  const server = await startChild('./bulk-server.ts');
  const creds = server.extra as { username: string; password: string; token: string };
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const prefix = `payinout-bench-${randomUUID().slice(0, 8)}`;
  const env = {
    BENCH_USERNAME: creds.username,
    BENCH_PASSWORD: creds.password,
    BENCH_TOKEN: creds.token,
    BENCH_BASE_URL: baseUrl,
    BENCH_PREFIX: prefix,
    REDIS_URL,
  };
  const setup: Setup = { sdk, bullmq, env, prefix };
  const client = new sdk.PaymentClient({ ...creds, baseUrl });
  try {
    const rates: QueueRate[] = [];
    for (const workers of [1, 2, 4]) {
      const queueRates: number[] = [];
      const manyRates: number[] = [];
      let rss = 0;
      for (let round = 0; round < rounds; round++) {
        const run = await throughQueue(setup, workers, items, `w${workers}-r${round}`);
        queueRates.push(run.rate);
        rss = Math.max(rss, run.rssMb);
        const batch = Array.from({ length: items }, (_, i) => payout(`many-w${workers}-r${round}`, i));
        const t0 = performance.now();
        await client.payout.createMany(batch, { concurrency: Math.min(64, workers * 16) });
        manyRates.push((items / (performance.now() - t0)) * 1000);
      }
      rates.push({ workers, queue: median(queueRates), createMany: median(manyRates), workerRssMb: rss });
    }
    const failover: QueueFailover[] = [];
    for (const lockMs of [10_000, 2_000]) failover.push({ lockMs, seconds: await afterKill(setup, lockMs) });
    return { rates, failover };
  } finally {
    await server.stop();
    await deleteKeys(prefix);
  }
}

async function throughQueue(setup: Setup, count: number, items: number, run: string) {
  const name = `bench-${run}`;
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(setup, name)));
  const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix: setup.prefix });
  try {
    const batch = Array.from({ length: items }, (_, i) => payout(run, i));
    const t0 = performance.now();
    const { batchId } = await setup.bullmq.enqueuePayOuts(queue, batch);
    await settled(setup.bullmq, queue, batchId);
    const rate = (items / (performance.now() - t0)) * 1000;
    const rss = await Promise.all(workers.map((w) => w.stop()));
    return { rate, rssMb: Math.max(...rss) };
  } finally {
    await queue.close();
  }
}

/** Two workers; the one holding jobs is SIGKILLed; seconds until the other has settled them all. */
async function afterKill(setup: Setup, lockMs: number): Promise<number> {
  const name = `bench-kill-${lockMs}`;
  // Few jobs, each held long enough that the victim surely has some in hand when it dies.
  const [victim, survivor] = [
    await startWorker(setup, name, lockMs, 4),
    await startWorker(setup, name, lockMs, 4),
  ];
  const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix: setup.prefix });
  try {
    const batch = Array.from({ length: 16 }, (_, i) => payout(`kill-${lockMs}`, i));
    const { batchId } = await setup.bullmq.enqueuePayOuts(queue, batch);
    // Once the victim holds jobs: its active jobs are the ones the survivor must take over.
    for (;;) {
      const counts = await setup.bullmq.countPayOutBatch(queue, batchId);
      if ((await queue.getActiveCount()) > 0 || counts.done === counts.total) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    victim.child.kill('SIGKILL');
    const t0 = performance.now();
    await settled(setup.bullmq, queue, batchId);
    const seconds = (performance.now() - t0) / 1000;
    await survivor.stop();
    return seconds;
  } finally {
    await queue.close();
  }
}

async function settled(bullmq: typeof QueueSdk, queue: Queue, batchId: string): Promise<void> {
  for (;;) {
    const counts = await bullmq.countPayOutBatch(queue, batchId);
    if (counts.done >= counts.total) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface BenchWorker {
  child: ChildProcess;
  /** Closes it and resolves with its peak RSS (MB). */
  stop(): Promise<number>;
}

async function startWorker(
  setup: Setup,
  queueName: string,
  lockMs?: number,
  concurrency = 16,
): Promise<BenchWorker> {
  const child = fork(fileURLToPath(new URL('./queue-worker.ts', import.meta.url)), {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      ...setup.env,
      BENCH_QUEUE: queueName,
      BENCH_CONCURRENCY: String(concurrency),
      ...(lockMs ? { BENCH_LOCK_MS: String(lockMs) } : {}),
    },
  });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`queue worker exited (${code})`)));
  });
  return {
    child,
    stop: () =>
      new Promise<number>((resolve) => {
        child.once('message', (m) => resolve((m as { maxRssMb: number }).maxRssMb));
        child.send('exit');
      }),
  };
}

async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
