/**
 * Bulk payouts: PayOuts per second through `client.payout.createMany` against the simulator (own
 * process) at concurrency 1, 4 and 16, beside a plain pool of `payout.create` calls (no lookup:
 * what a hand-written loop does, unsafe to re-run) and a re-run where every item is recovered;
 * then the peak RSS of `payinout payouts send --dry-run` on generated CSV files of 10,000 and
 * 100,000 rows (flat memory is the point: the file streams).
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { finished } from 'node:stream/promises';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payout } from './queue-items.js';
import { median } from './stats.js';

export interface BulkRate {
  concurrency: number;
  /** PayOuts per second, medians of interleaved rounds. */
  createMany: number;
  /** The same requests (lookup, then POST) made with raw fetch and a minimal pool. */
  rawLookupCreate: number;
  /** A plain pool of payout.create calls (no lookup first: what an unsafe hand-written loop does). */
  plainCreate: number;
  /** createMany run again on an already sent batch: every item recovered, nothing sent. */
  rerun: number;
}

export interface BulkMemory {
  rows: number;
  /** --max-old-space-size given to the CLI, when capped: it completes only if memory does not grow with the file. */
  heapCapMb?: number;
  fileMb: number;
  peakRssMb: number;
  seconds: number;
}

export async function benchBulkRate(sdk: typeof Sdk, items = 1_000, rounds = 3): Promise<BulkRate[]> {
  const server = await startChild('./bulk-server.ts');
  const creds = server.extra as { username: string; password: string; token: string };
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const client = new sdk.PaymentClient({ ...creds, baseUrl });
  const raw = rawClient(baseUrl, creds);
  const perSecond = async (run: () => Promise<unknown>) => {
    const t0 = performance.now();
    await run();
    return (items / (performance.now() - t0)) * 1000;
  };
  const batchOf = (name: string) => Array.from({ length: items }, (_, i) => payout(name, i, 'bench'));
  await client.payout.createMany(batchOf('warm'), { concurrency: 16 });
  const rates: BulkRate[] = [];
  for (const concurrency of [1, 4, 16]) {
    const many: number[] = [];
    const rawRates: number[] = [];
    const plain: number[] = [];
    const reruns: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const batch = batchOf(`many-c${concurrency}-r${round}`);
      many.push(await perSecond(() => createAll(client, batch, concurrency)));
      reruns.push(await perSecond(() => client.payout.createMany(batch, { concurrency })));
      rawRates.push(await perSecond(() => pool(batchOf(`raw-c${concurrency}-r${round}`), concurrency, raw)));
      const plainBatch = batchOf(`plain-c${concurrency}-r${round}`);
      plain.push(await perSecond(() => pool(plainBatch, concurrency, (p) => client.payout.create(p))));
    }
    rates.push({
      concurrency,
      createMany: median(many),
      rawLookupCreate: median(rawRates),
      plainCreate: median(plain),
      rerun: median(reruns),
    });
  }
  await server.stop();
  return rates;
}

async function createAll(client: Sdk.PaymentClient, batch: Sdk.PayOutCreateParams[], concurrency: number) {
  const results = await client.payout.createMany(batch, { concurrency });
  const failed = results.filter((r) => r.outcome !== 'created');
  if (failed.length)
    throw new Error(`${failed.length} payouts were not created: ${failed[0]?.error?.message}`);
}

/** GET the reference (404 expected), then POST the PayOut: createMany's requests without the SDK. */
function rawClient(baseUrl: string, creds: { username: string; password: string; token: string }) {
  const headers = {
    authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    'token-top': creds.token,
    'content-type': 'application/json',
  };
  return async (p: ReturnType<typeof payout>) => {
    const found = await fetch(`${baseUrl}/api/v1/transaction/${p.reference}`, { headers });
    await found.arrayBuffer();
    if (found.status !== 404) throw new Error(`lookup answered ${found.status}`);
    const created = await fetch(`${baseUrl}/api/v1/payout`, {
      method: 'POST',
      headers,
      body: JSON.stringify(p),
    });
    await created.arrayBuffer();
    if (created.status !== 200) throw new Error(`create answered ${created.status}`);
  };
}

async function pool<T>(items: T[], concurrency: number, run: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) await run(items[i]!);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/** Peak RSS of the built CLI validating a generated file, read by a preloaded exit hook. */
export async function benchBulkMemory(
  runs: { rows: number; heapCapMb?: number }[] = [
    { rows: 10_000 },
    { rows: 100_000 },
    { rows: 100_000, heapCapMb: 24 },
  ],
): Promise<BulkMemory[]> {
  const dir = mkdtempSync(join(tmpdir(), 'payinout-bench-bulk-'));
  const probe = `data:text/javascript,process.on('exit',()=>process.stderr.write('maxrss='+process.resourceUsage().maxRSS+'\\n'))`;
  try {
    const out: BulkMemory[] = [];
    for (const { rows, heapCapMb } of runs) {
      const file = join(dir, `payouts-${rows}.csv`);
      if (!existsSync(file)) await writeCsv(file, rows);
      const cap = heapCapMb ? [`--max-old-space-size=${heapCapMb}`] : [];
      const t0 = performance.now();
      const run = spawnSync(
        process.execPath,
        [...cap, `--import=${probe}`, 'dist/cli.js', 'payouts', 'send', file, '--dry-run'],
        {
          encoding: 'utf8',
          env: { ...process.env, PAYINOUT_USERNAME: '' },
        },
      );
      const seconds = (performance.now() - t0) / 1000;
      const kb = Number(/maxrss=(\d+)/.exec(run.stderr)?.[1]);
      if (run.status !== 0 || !kb)
        throw new Error(`dry run failed (${run.status}): ${run.stderr.slice(0, 500)}`);
      out.push({
        rows,
        ...(heapCapMb ? { heapCapMb } : {}),
        fileMb: statSync(file).size / 1e6,
        peakRssMb: kb / 1024,
        seconds,
      });
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write(
    'reference,amount,currency,country,payment_method,ipn_url,legal_doc,legal_doc_type,phone_code,phone_number,email,full_name,bank,account_number,account_type,metadata\n',
  );
  for (let i = 0; i < rows; i++) {
    const line = `bench-row-${i},${10_000 + (i % 5000)},COP,CO,BANK_TRANSFER,https://merchant.example.com/webhooks/payinout,${1_000_000 + i},CC,57,3001234567,seller${i}@example.com,Seller ${i},BANCOLOMBIA,${10_000_000_000 + i},AHORRO,"{""row"":${i}}"\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
}
