/**
 * Child process: one payinout/bullmq worker (built dist/) against the bench simulator. Sends
 * 'ready' once connected; on 'exit' it closes (finishing its jobs) and reports its peak RSS.
 */
import { pathToFileURL } from 'node:url';
import type * as Queue from '../src/bullmq/index.js';
import type * as Sdk from '../src/index.js';

const sdk = (await import(pathToFileURL('dist/node/index.js').href)) as typeof Sdk;
const bullmq = (await import(pathToFileURL('dist/bullmq/index.js').href)) as typeof Queue;
const env = process.env;
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
  concurrency: Number(env.BENCH_CONCURRENCY ?? 16),
  workerOptions: {
    prefix: env.BENCH_PREFIX ?? 'bull',
    ...(lock ? { lockDuration: lock, stalledInterval: lock / 2 } : {}),
  },
});
await worker.waitUntilReady();
const cpuAtReady = process.cpuUsage();
process.send?.({ ready: true });
process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
process.on('message', async (message) => {
  if (message !== 'exit') return;
  await worker.close();
  const cpu = process.cpuUsage(cpuAtReady);
  process.send?.({ maxRssMb: process.resourceUsage().maxRSS / 1024, cpuMs: (cpu.user + cpu.system) / 1000 });
  process.exit(0);
});
