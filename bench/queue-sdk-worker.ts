/**
 * Child process: a bare BullMQ Worker (no payinout/bullmq) whose job calls the SDK itself —
 * `client.transactions.get` (NotFoundError: not sent yet), then `client.payout.create` — one
 * PayOut a job, as the anchor does with plain node:http. Beside the anchor and payinout's worker
 * (bench/queue-profile.ts) it splits payinout's per-PayOut CPU into the SDK's calls and the queue
 * layer around them. With BENCH_VARIANT=many the job calls `client.payout.createMany([item])`
 * instead: the runner for "many" and its lookup-first step, without payinout/bullmq's leases and
 * scripts. Speaks queue-child.ts's protocol.
 */
import { pathToFileURL } from 'node:url';
import { Worker } from 'bullmq';
import type * as Sdk from '../src/index.js';
import { serveBench } from './queue-child.js';

const sdk = (await import(pathToFileURL('dist/node/index.js').href)) as typeof Sdk;
const env = process.env;
const client = new sdk.PaymentClient({
  username: env.BENCH_USERNAME ?? '',
  password: env.BENCH_PASSWORD ?? '',
  token: env.BENCH_TOKEN ?? '',
  baseUrl: env.BENCH_BASE_URL ?? '',
});

type Params = Parameters<typeof client.payout.create>[0];

async function settle(item: Params): Promise<string> {
  if (env.BENCH_VARIANT === 'many') {
    const [result] = await client.payout.createMany([item]);
    if (result?.outcome === 'failed') throw result.error;
    return result?.ticket ?? '';
  }
  try {
    await client.transactions.get(item.reference);
    return 'recovered';
  } catch (error) {
    if (!(error instanceof sdk.NotFoundError)) throw error;
  }
  return (await client.payout.create(item)).ticket;
}

const worker = new Worker<Params>(env.BENCH_QUEUE ?? '', (job) => settle(job.data), {
  connection: { url: env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
  prefix: env.BENCH_PREFIX ?? 'bull',
  concurrency: Number(env.BENCH_CONCURRENCY ?? 16),
});
await worker.waitUntilReady();
const settled = serveBench(worker);
worker.on('completed', () => settled(1));
worker.on('failed', (job, error) => settled(0, `job ${job?.id}: ${error.message}`));
