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

let REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface QueueRate {
  workers: number;
  /** PayOuts per second through the queue: enqueue to the last result, medians of rounds. */
  queue: number;
  /** createMany in this process, same items, concurrency = workers × 16 (at most 64). */
  createMany: number;
  /** Highest peak RSS among the worker processes. */
  workerRssMb: number;
}

/** One mode of the queue (`itemsPerJob`) at one worker count: what one settled PayOut costs. */
export interface QueueCost {
  itemsPerJob: number;
  workers: number;
  /** PayOuts per second, enqueue to the last result, median of the rounds. */
  rate: number;
  /** Redis commands executed per PayOut (INFO commandstats delta; Lua's inner calls counted). */
  commands: number;
  /** Scripts run (EVALSHA + EVAL) per PayOut. */
  scripts: number;
  /** Worker CPU (user + system, all workers) per PayOut, ms. */
  cpuMs: number;
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
  const own = await ownRedis();
  try {
    // The cost of each mode, on a redis-server of the bench's own (nobody else's commands counted).
    const shared = { url: REDIS_URL };
    REDIS_URL = own.url;
    setup.env.REDIS_URL = own.url;
    const costs: QueueCost[] = [];
    for (const workers of [1, 2]) {
      const byMode = new Map<number, QueueCost[]>();
      // Interleaved rounds: the machine's load (shared) falls on both modes alike.
      for (let round = 0; round < rounds; round++) {
        for (const itemsPerJob of [1, 50]) {
          const cost = await costOf(
            setup,
            workers,
            items,
            itemsPerJob,
            `c${workers}-${itemsPerJob}-r${round}`,
          );
          byMode.set(itemsPerJob, [...(byMode.get(itemsPerJob) ?? []), cost]);
        }
      }
      for (const runs of byMode.values()) costs.push(medianCost(runs));
    }
    REDIS_URL = shared.url;
    setup.env.REDIS_URL = shared.url;
    const rates: QueueRate[] = [];
    for (const workers of [1, 2, 4]) {
      const queueRates: number[] = [];
      const manyRates: number[] = [];
      let rss = 0;
      for (let round = 0; round < rounds; round++) {
        const run = await throughQueue(setup, workers, items, `w${workers}-r${round}`, 1);
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
    return { costs, rates, failover };
  } finally {
    own.stop();
    await server.stop();
    await deleteKeys(prefix);
  }
}

async function throughQueue(setup: Setup, count: number, items: number, run: string, itemsPerJob = 1) {
  const name = `bench-${run}`;
  const workers = await Promise.all(Array.from({ length: count }, () => startWorker(setup, name)));
  const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix: setup.prefix });
  try {
    const batch = Array.from({ length: items }, (_, i) => payout(run, i));
    const before = await commandStats();
    const t0 = performance.now();
    const { batchId } = await setup.bullmq.enqueuePayOuts(queue, batch, { itemsPerJob });
    await settled(setup.bullmq, queue, batchId);
    const rate = (items / (performance.now() - t0)) * 1000;
    const after = await commandStats();
    const stopped = await Promise.all(workers.map((w) => w.stop()));
    return {
      rate,
      rssMb: Math.max(...stopped.map((s) => s.maxRssMb)),
      cpuMs: stopped.reduce((sum, s) => sum + s.cpuMs, 0),
      commands: after.calls - before.calls,
      scripts: after.scripts - before.scripts,
    };
  } finally {
    await queue.close();
  }
}

async function costOf(setup: Setup, workers: number, items: number, itemsPerJob: number, run: string) {
  const r = await throughQueue(setup, workers, items, run, itemsPerJob);
  // The bench's own polling (countPayOutBatch every 20 ms) is a few commands in the count.
  return {
    itemsPerJob,
    workers,
    rate: r.rate,
    commands: r.commands / items,
    scripts: r.scripts / items,
    cpuMs: r.cpuMs / items,
  };
}

function medianCost(runs: QueueCost[]): QueueCost {
  const of = (pick: (c: QueueCost) => number) => median(runs.map(pick));
  const [first] = runs;
  return {
    itemsPerJob: first!.itemsPerJob,
    workers: first!.workers,
    rate: of((c) => c.rate),
    commands: of((c) => c.commands),
    scripts: of((c) => c.scripts),
    cpuMs: of((c) => c.cpuMs),
  };
}

/** Every command Redis executed so far (INFO commandstats), and the scripts among them. */
async function commandStats(): Promise<{ calls: number; scripts: number }> {
  const redis = new Redis(REDIS_URL);
  try {
    const info = await redis.info('commandstats');
    let calls = 0;
    let scripts = 0;
    for (const [, name, n] of info.matchAll(/^cmdstat_([a-z|_-]+):calls=(\d+)/gm)) {
      calls += Number(n);
      if (name === 'evalsha' || name === 'eval') scripts += Number(n);
    }
    return { calls, scripts };
  } finally {
    redis.disconnect();
  }
}

/** A redis-server of the bench's own, on a free port, so commandstats count only the bench. */
async function ownRedis(): Promise<{ url: string; stop: () => void }> {
  const { createServer } = await import('node:net');
  const { spawn } = await import('node:child_process');
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', () => reject(new Error('redis-server did not start (is it installed?)')));
  });
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
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
  /** Closes it and resolves with its peak RSS (MB) and the CPU it spent since it was ready (ms). */
  stop(): Promise<{ maxRssMb: number; cpuMs: number }>;
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
      new Promise<{ maxRssMb: number; cpuMs: number }>((resolve) => {
        child.once('message', (m) => resolve(m as { maxRssMb: number; cpuMs: number }));
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
