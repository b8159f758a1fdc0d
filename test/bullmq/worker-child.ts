/**
 * One PayOut worker as its own process, as a merchant runs it: its own client (credentials from
 * the environment, never from the job), `createPayOutWorker`, and a clean exit on SIGTERM after
 * its jobs are finished. Prints `ready` once BullMQ is connected.
 */
import { createPayOutWorker } from '../../src/bullmq/index.js';
// The Node entry, as `import 'payinout'` resolves on Node: its client sends over node:http.
import { PaymentClient } from '../../src/node/index.js';

const env = process.env;
// A host whose clock differs from the others' (test/bullmq/clock.test.ts): every Date.now() of this
// process, payinout's and BullMQ's, reads CLOCK_OFFSET_MS away from the machine's clock.
const offset = Number(env.CLOCK_OFFSET_MS ?? 0);
if (offset) {
  const realNow = Date.now.bind(Date);
  Date.now = () => realNow() + offset;
}
const client = new PaymentClient({
  username: env.PAYINOUT_USERNAME ?? '',
  password: env.PAYINOUT_PASSWORD ?? '',
  token: env.PAYINOUT_TOKEN ?? '',
  baseUrl: env.PAYINOUT_BASE_URL ?? '',
  appInfo: { name: env.WORKER_NAME ?? 'worker-0' },
});
const worker = createPayOutWorker({
  queueName: env.QUEUE_NAME ?? '',
  connection: { url: env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  client,
  concurrency: Number(env.CONCURRENCY ?? 4),
  workerOptions: {
    prefix: env.QUEUE_PREFIX ?? 'bull',
    lockDuration: Number(env.LOCK_MS ?? 2_000),
    stalledInterval: Number(env.STALLED_MS ?? 1_000),
    ...(env.MAX_STALLED ? { maxStalledCount: Number(env.MAX_STALLED) } : {}),
  },
});
await worker.waitUntilReady();
process.stdout.write('ready\n');
process.on('SIGTERM', async () => {
  await worker.close();
  process.exit(0);
});
