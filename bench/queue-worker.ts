/**
 * Child process: one payinout/bullmq worker (built dist/) against the bench simulator. Without
 * BENCH_CONCURRENCY or BENCH_LOCK_MS it runs with payinout's defaults. Speaks queue-child.ts's
 * protocol: 'ready', batched 'settled' counts, 'cpu' and 'exit' answered with its CPU and memory.
 */
import { pathToFileURL } from 'node:url';
import type * as Queue from '../src/bullmq/index.js';
import type * as Sdk from '../src/index.js';
import { serveBench } from './queue-child.js';

const env = process.env;
// BENCH_DIST: another build's dist/ (bench/queue-profile.ts compares two builds in one run).
const dist = env.BENCH_DIST ?? 'dist';
const sdk = (await import(pathToFileURL(`${dist}/node/index.js`).href)) as typeof Sdk;
const bullmq = (await import(pathToFileURL(`${dist}/bullmq/index.js`).href)) as typeof Queue;
const client = new sdk.PaymentClient({
  username: env.BENCH_USERNAME ?? '',
  password: env.BENCH_PASSWORD ?? '',
  token: env.BENCH_TOKEN ?? '',
  baseUrl: env.BENCH_BASE_URL ?? '',
});
const lock = env.BENCH_LOCK_MS ? Number(env.BENCH_LOCK_MS) : undefined;
const worker = bullmq.createPayOutWorker({
  queueName: env.BENCH_QUEUE ?? '',
  connection: { url: env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  client,
  ...(env.BENCH_CONCURRENCY ? { concurrency: Number(env.BENCH_CONCURRENCY) } : {}),
  workerOptions: {
    prefix: env.BENCH_PREFIX ?? 'bull',
    ...(lock ? { lockDuration: lock, stalledInterval: lock / 2 } : {}),
  },
});
await worker.waitUntilReady();
const settled = serveBench(worker);
worker.on('completed', (_job, result) => settled(Array.isArray(result) ? result.length : 1));
worker.on('failed', (job, error) => settled(0, `job ${job?.id}: ${error.message}`));
