/**
 * Child process: "the anchor" — a bare BullMQ Worker, no payinout import, whose job does what a
 * payinout job does for each PayOut with plain node:http over a keep-alive agent: GET the
 * transaction by reference (404: not sent yet), then POST the PayOut. A job holds one PayOut or,
 * "the chunked anchor", an array of them: all lookups, then the creates of the ones not found,
 * BENCH_ITEMS_AT_ONCE in flight (payinout's chunk runner does 8). No leases, no results hash, no
 * pause: the floor any queue of PayOuts pays. Speaks queue-child.ts's protocol.
 */
import http from 'node:http';
import { Worker } from 'bullmq';
import { serveBench } from './queue-child.js';

const env = process.env;
const base = env.BENCH_BASE_URL ?? '';
const headers = {
  authorization: `Basic ${Buffer.from(`${env.BENCH_USERNAME}:${env.BENCH_PASSWORD}`).toString('base64')}`,
  'token-top': env.BENCH_TOKEN ?? '',
  'content-type': 'application/json',
};
const agent = new http.Agent({ keepAlive: true, timeout: 4_000 });
const itemsAtOnce = Number(env.BENCH_ITEMS_AT_ONCE ?? 8);

interface Item {
  reference: string;
}

function send(path: string, body?: string): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const sent =
      body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const method = body === undefined ? 'GET' : 'POST';
    const req = http.request(`${base}${path}`, { method, headers: sent, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject).end(body);
  });
}

async function lookup(item: Item): Promise<boolean> {
  const found = await send(`/api/v1/transaction/${encodeURIComponent(item.reference)}`);
  if (found.status !== 200 && found.status !== 404) throw new Error(`lookup answered ${found.status}`);
  return found.status === 200;
}

async function create(item: Item): Promise<string> {
  const created = await send('/api/v1/payout', JSON.stringify(item));
  if (created.status !== 200) throw new Error(`create answered ${created.status}`);
  return (created.json as { status?: string }).status ?? '';
}

/** `run` over `items`, `limit` at a time, results in input order. */
async function pool<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

async function settle(items: readonly Item[]): Promise<string[]> {
  const found = await pool(items, itemsAtOnce, lookup);
  const positions = items.map((_, i) => i);
  return pool(positions, itemsAtOnce, (i) => (found[i] ? Promise.resolve('recovered') : create(items[i]!)));
}

const worker = new Worker<Item | Item[]>(
  env.BENCH_QUEUE ?? '',
  async (job) => {
    const items = Array.isArray(job.data) ? job.data : [job.data];
    const outcomes = await settle(items);
    return Array.isArray(job.data) ? outcomes : outcomes[0];
  },
  {
    connection: { url: env.REDIS_URL ?? 'redis://127.0.0.1:6379' },
    prefix: env.BENCH_PREFIX ?? 'bull',
    concurrency: Number(env.BENCH_CONCURRENCY ?? 16),
  },
);
await worker.waitUntilReady();
const settled = serveBench(worker);
worker.on('completed', (job) => settled(Array.isArray(job.data) ? job.data.length : 1));
worker.on('failed', (job, error) => settled(0, `job ${job?.id}: ${error.message}`));
