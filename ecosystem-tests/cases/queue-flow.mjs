/**
 * payinout/bullmq on the BullMQ major installed beside it (the peer range is ^5 || ^6; the unit
 * suites run 6): a batch enqueued in both modes (one job per PayOut, chunks of 50), settled by a
 * createPayOutWorker against the simulator, read back with readPayOutBatch; then enqueued again
 * under a new batchId, every PayOut recovered and none sent twice. Redis is REDIS_URL (CI starts
 * one). Run by run.mjs in an app of its own: `node queue-flow.mjs`.
 */
import { createRequire } from 'node:module';
import { Queue } from 'bullmq';
import { PaymentClient } from 'payinout';
import { createPayOutWorker, enqueuePayOuts, readPayOutBatch } from 'payinout/bullmq';
import { startSandboxServer } from 'payinout/testing';
import { CUSTOMER, check } from './money-flow.mjs';

const connection = { url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' };
const merchant = { username: 'eco-queue', password: 'eco-queue-pass', token: 'eco-queue-token' };
const run = `eco-${Date.now().toString(36)}`;
const payout = (i) => ({
  payment_method: 'BANK_TRANSFER',
  reference: `${run}-${i}`,
  amount: 10_000 + i,
  currency: 'COP',
  country: 'CO',
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  customer_data: {
    ...CUSTOMER,
    bank: 'BANCOLOMBIA',
    account_number: String(10_000_000_000 + i),
    account_type: 'AHORRO',
  },
});

async function settled(queue, batchId) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await readPayOutBatch(queue, batchId);
    if (state.pending === 0) return state;
    check(Date.now() < deadline, `batch ${batchId} settles within 30 s (pending ${state.pending})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const creates = new Map();
const server = await startSandboxServer({
  webhooks: false,
  merchants: [{ ...merchant, country: 'CO', balance: 1e12 }],
  onRequest: (request) => {
    if (request.operation === 'payout.create')
      creates.set(request.subject, (creates.get(request.subject) ?? 0) + 1);
  },
});
const queue = new Queue(run, { connection });
const client = new PaymentClient({ ...merchant, baseUrl: `http://127.0.0.1:${server.port}`, maxRetries: 0 });
const worker = createPayOutWorker({ queueName: run, connection, client, concurrency: 8 });
const errors = [];
worker.on('error', (error) => errors.push(error.message));
const counts = {};
try {
  for (const itemsPerJob of [1, 50]) {
    const items = Array.from({ length: 120 }, (_, i) => payout(itemsPerJob * 1_000 + i));
    const first = await settled(queue, (await enqueuePayOuts(queue, items, { itemsPerJob })).batchId);
    check(first.created === 120 && first.failed === 0, `itemsPerJob ${itemsPerJob}: 120 created`);
    check(
      first.results.every((result, i) => result.reference === items[i].reference),
      `itemsPerJob ${itemsPerJob}: results in input order`,
    );
    const again = await settled(queue, (await enqueuePayOuts(queue, items, { itemsPerJob })).batchId);
    check(again.recovered === 120, `itemsPerJob ${itemsPerJob}: enqueued again, 120 recovered`);
    counts[`itemsPerJob ${itemsPerJob}`] = `${first.created} created, ${again.recovered} recovered`;
  }
  const twice = [...creates.values()].filter((n) => n !== 1).length;
  check(
    creates.size === 240 && twice === 0,
    `240 PayOuts created, each once (${creates.size}; ${twice} more than once)`,
  );
  check(errors.length === 0, `no worker error (${errors.join('; ')})`);
} finally {
  await worker.close();
  await queue.obliterate({ force: true }).catch(() => undefined);
  await queue.close();
  await server.close();
}
const bullmq = createRequire(import.meta.url)('bullmq/package.json').version;
console.log(
  `RESULT ${JSON.stringify({ runtime: `bullmq ${bullmq} on node ${process.version}`, ...counts })}`,
);
