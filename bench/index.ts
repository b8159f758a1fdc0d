/**
 * `npm run bench` (builds first): every figure of docs/performance.md from one run, printed as
 * Markdown. Never part of `npm test`; nothing here asserts a time. Imports the built dist/.
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type * as Sdk from '../src/index.js';
import type * as Testing from '../src/testing/index.js';
import { benchBulkMemory, benchBulkRate } from './bulk.js';
import { benchClientCpu } from './client-cpu.js';
import { benchDashboard } from './dashboard.js';
import { benchHttp } from './http.js';
import { benchImports } from './imports.js';
import { benchRetentionMemory } from './retention-memory.js';
import { benchSimulator } from './simulator.js';
import { fmt, type Summary } from './stats.js';
import { benchTracing, printTracing } from './tracing.js';
import { benchWebhook } from './webhook.js';

// What Node resolves `payinout` to (the `node` export condition): clients send over node:http.
const sdk = (await import(pathToFileURL('dist/node/index.js').href)) as typeof Sdk;
const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
// e.g. `tsx bench/index.ts http` for one section; `queue --quick` for a smaller queue run
const args = process.argv.slice(2);
const flags = new Set(args.filter((a) => a.startsWith('--')));
const only = new Set(args.filter((a) => !a.startsWith('--')));
const wants = (section: string) => only.size === 0 || only.has(section);

const cpus = os.cpus();
console.log(`# payinout bench — ${new Date().toISOString()}\n`);
console.log(
  `Node ${process.version}, ${os.availableParallelism()} cores (${cpus[0]?.model ?? '?'}), ${os.platform()} ${os.release()}, load average at start ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}\n`,
);

const row = (name: string, s: Summary) =>
  `| ${name} | ${fmt(s.p50, 3)} | ${fmt(s.p99, 3)} | ${fmt(s.rps)} | ${fmt(s.cpu * 100)} % | ${fmt((s.cpu * 1e6) / s.rps)} |`;
const table = (title: string, results: Record<string, Summary>) => {
  console.log(
    `### ${title}\n\n| scenario | p50 ms | p99 ms | req/s | client CPU | CPU µs per call |\n|---|--:|--:|--:|--:|--:|`,
  );
  for (const [name, s] of Object.entries(results)) console.log(row(name, s));
  console.log('');
};

if (wants('http')) {
  const http = await benchHttp(sdk);
  console.log('## HTTP client overhead (envelope server in a child process, keep-alive, 127.0.0.1)\n');
  table('Sequential (4 interleaved rounds × 500 requests, after 500 warm-up)', http.sequential);
  table('Concurrency 32 (4,000 requests after 320 warm-up)', http.concurrent);
  console.log(
    `Envelope server CPU during the concurrent runs: ${fmt(http.serverCpu * 100)} % of one core.\n`,
  );
  console.log(
    '### payinout ÷ raw fetch\n\n| call | p50 seq | req/s seq | p50 c32 | req/s c32 |\n|---|--:|--:|--:|--:|',
  );
  for (const [mine, raw] of [
    ['payinout payin.create', 'fetch POST payin'],
    ['payinout on fetch payin.create', 'fetch POST payin'],
    ['stripe-node customers.create', 'fetch POST payin'],
    ['payinout transactions.get', 'fetch GET transaction'],
    ['payinout on fetch transactions.get', 'fetch GET transaction'],
    ['stripe-node customers.retrieve', 'fetch GET transaction'],
  ] as const) {
    const [s, r, c, rc] = [
      http.sequential[mine]!,
      http.sequential[raw]!,
      http.concurrent[mine]!,
      http.concurrent[raw]!,
    ];
    console.log(
      `| ${mine} | ${fmt(s.p50 / r.p50, 2)}× | ${fmt(s.rps / r.rps, 2)}× | ${fmt(c.p50 / rc.p50, 2)}× | ${fmt(c.rps / rc.rps, 2)}× |`,
    );
  }
  console.log(
    '\nTargets: p50 sequential ≤ 1.3× raw fetch for payin.create, ≤ 1.1× for transactions.get; stripe-node is the peer. "on fetch" is the same client given `fetch` (what Bun, Deno and Workers run).\n',
  );
  undiciRatios(http);
}

/** Each client ÷ undici.request (the floor) in the same run: p50 and CPU µs per call. */
function undiciRatios(http: Awaited<ReturnType<typeof benchHttp>>): void {
  console.log(
    '### ÷ undici.request (and payinout ÷ raw node:http, its own floor)\n\n| call ÷ floor | p50 seq | CPU/call seq | p50 c32 | CPU/call c32 |\n|---|--:|--:|--:|--:|',
  );
  const perCall = (s: Summary) => s.cpu / s.rps;
  for (const [mine, floor] of [
    ['node:http POST payin', 'undici POST payin'],
    ['payinout payin.create', 'undici POST payin'],
    ['payinout payin.create', 'node:http POST payin'],
    ['payinout on fetch payin.create', 'undici POST payin'],
    ['stripe-node customers.create', 'undici POST payin'],
    ['node:http GET transaction', 'undici GET transaction'],
    ['payinout transactions.get', 'undici GET transaction'],
    ['payinout transactions.get', 'node:http GET transaction'],
    ['stripe-node customers.retrieve', 'undici GET transaction'],
  ] as const) {
    const [s, u, c, uc] = [
      http.sequential[mine]!,
      http.sequential[floor]!,
      http.concurrent[mine]!,
      http.concurrent[floor]!,
    ];
    console.log(
      `| ${mine} ÷ ${floor} | ${fmt(s.p50 / u.p50, 2)}× | ${fmt(perCall(s) / perCall(u), 2)}× | ${fmt(c.p50 / uc.p50, 2)}× | ${fmt(perCall(c) / perCall(uc), 2)}× |`,
    );
  }
  console.log(
    '\nTarget (0.4): payin.create p50 sequential ≤ 1.3× raw node:http in the same run; the 0.3 target of 1.15× undici.request is withdrawn (undici as a dependency would cost more at cold start than it saves per call).\n',
  );
}

if (wants('cpu')) {
  const rows = await benchClientCpu({ payinout: sdk });
  console.log(
    '## Client CPU per call under load (64 concurrent payin.create against the simulator, own process)\n',
  );
  console.log('| client | CPU µs per call | ÷ raw fetch | req/s |\n|---|--:|--:|--:|');
  const fetchMicros = rows[0]!.micros;
  for (const row of rows) {
    console.log(
      `| ${row.name} | ${fmt(row.micros)} | ${fmt(row.micros / fetchMicros, 2)}× | ${fmt(row.rps)} |`,
    );
  }
  console.log(
    '\nMedian of 3 interleaved rounds × 6,000 calls. "payinout payin.create" is what Node resolves (node:http sender); "on fetch" is the same client given `fetch`. Target: half of 0.1\'s ~400 µs.\n',
  );
}

if (wants('tracing')) printTracing(await benchTracing(sdk), fmt);

if (wants('webhook')) {
  const ops = benchWebhook(sdk, testing);
  console.log(
    `## verifyWebhook\n\n${fmt(ops)} ops/s (json scheme, 2 s after 20,000 warm-up calls; target ≥ 200,000)\n`,
  );
}

if (wants('simulator')) {
  const sim = await benchSimulator(sdk);
  console.log(
    '## Simulator (startSandboxServer from dist/testing, own process), POST /api/v2/payin, concurrency 32\n',
  );
  console.log(
    '| load generator | p50 ms | p99 ms | req/s | generator CPU | simulator CPU |\n|---|--:|--:|--:|--:|--:|',
  );
  for (const [name, s] of [
    ['undici Pool (lean)', sim.lean],
    ['payinout client.payin.create', sim.client],
  ] as const) {
    console.log(
      `| ${name} | ${fmt(s.p50, 3)} | ${fmt(s.p99, 3)} | ${fmt(s.rps)} | ${fmt(s.cpu * 100)} % | ${fmt(s.serverCpu * 100)} % |`,
    );
  }
  console.log('\nTarget: ≥ 1,500 req/s. CPU in % of one core; both processes share the machine.\n');
}

if (wants('dashboard')) {
  const d = await benchDashboard();
  console.log(
    `## Simulator dashboard with ${fmt(d.transactions)} transactions (own process; seeded in ${fmt(d.seedMs / 1000, 1)} s)\n`,
  );
  console.log('| GET /dashboard/api/state | p50 ms | p99 ms | answer KB |\n|---|--:|--:|--:|');
  for (const [name, s] of Object.entries(d.api)) {
    console.log(`| ${name} | ${fmt(s.p50, 1)} | ${fmt(s.p99, 1)} | ${fmt(s.bytes / 1024, 1)} |`);
  }
  const shown = d.browserMs
    ? `median ${fmt(d.browserMs[Math.floor(d.browserMs.length / 2)]!)} ms, slowest ${fmt(d.browserMs.at(-1)!)} ms over ${d.browserMs.length} fresh pages`
    : 'not measured (no Chromium)';
  console.log(`\nChromium, navigation to 50 rows on screen (1280 px): ${shown}. Target: under 1 s.\n`);
}

if (wants('retention')) {
  const points = await benchRetentionMemory();
  console.log(
    '## Simulator memory with maxTransactions 100,000 (1,000,000 PayIns created and confirmed, own process, after a full GC)\n',
  );
  console.log('| created | kept | dropped | RSS MB | heap MB | seconds |\n|--:|--:|--:|--:|--:|--:|');
  for (const p of points) {
    console.log(
      `| ${fmt(p.created)} | ${fmt(p.kept)} | ${fmt(p.dropped)} | ${fmt(p.rssMb)} | ${fmt(p.heapMb)} | ${fmt(p.seconds, 1)} |`,
    );
  }
  console.log('\nTarget: RSS flat once the limit is reached.\n');
}

if (wants('import')) {
  const imports = benchImports();
  console.log('## Import time (fresh `node` process per run, interleaved, median of 21)\n');
  console.log('| module | `await import()` in-process ms | process wall ms |\n|---|--:|--:|');
  for (const [name, t] of Object.entries(imports)) {
    console.log(`| ${name} | ${fmt(t.inProcess, 1)} | ${fmt(t.wall, 1)} |`);
  }
  console.log('\nTarget: payinout ≤ 80 ms in-process and below stripe and openai.\n');
}
if (wants('bulk')) {
  const rates = await benchBulkRate(sdk);
  console.log(
    '## Bulk payouts (simulator in its own process; 1,000 PayOuts per run, median of 3 interleaved rounds)\n',
  );
  console.log(
    '| concurrency | createMany /s | raw fetch lookup + POST /s | createMany ÷ raw | plain payout.create pool /s | re-run, all recovered /s |\n|--:|--:|--:|--:|--:|--:|',
  );
  for (const r of rates) {
    const cells = [r.createMany, r.rawLookupCreate].map((v) => fmt(v));
    console.log(
      `| ${r.concurrency} | ${cells.join(' | ')} | ${fmt(r.createMany / r.rawLookupCreate, 2)}× | ${fmt(r.plainCreate)} | ${fmt(r.rerun)} |`,
    );
  }
  console.log(
    '\ncreateMany looks every reference up before creating it (what makes a re-run safe): two requests per new PayOut, as in the raw column; the plain pool makes one and is not safe to re-run.\n',
  );
  console.log('| `payouts send --dry-run` | file MB | peak RSS MB | seconds |\n|---|--:|--:|--:|');
  for (const m of await benchBulkMemory()) {
    const cap = m.heapCapMb ? `, heap capped at ${m.heapCapMb} MB` : '';
    console.log(
      `| ${fmt(m.rows)} rows${cap} | ${fmt(m.fileMb, 1)} | ${fmt(m.peakRssMb, 1)} | ${fmt(m.seconds, 1)} |`,
    );
  }
  console.log('');
}

if (wants('queue')) {
  const { benchQueue } = await import('./queue.js');
  const { printQueue } = await import('./queue-print.js');
  try {
    printQueue(await benchQueue({ quick: flags.has('--quick') }));
  } catch (error) {
    if (!/redis-server did not start/.test(String(error))) throw error;
    console.log(
      '## Queue (payinout/bullmq)\n\nSkipped: no redis-server binary on PATH (the queue bench starts its own).\n',
    );
  }
}

console.log(
  `Load average at end: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
