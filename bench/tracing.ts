/**
 * What tracing costs per call: client CPU (µs, user + system) of `payin.create` and
 * `transactions.get` against the envelope server (own process, keep-alive), without a tracer,
 * with a tracer of OpenTelemetry's no-op provider (what `trace.getTracer()` returns before an SDK
 * is started: "tracing off"), a bare no-op tracer (hand-written, spans never record: payinout's
 * own share) and a recording SDK tracer (BasicTracerProvider, spans dropped) for scale.
 *
 * Short blocks of calls, interleaved (the order rotated each round), each block's ratio taken to
 * the no-tracer block of the same round: slow drifts of the machine cancel (the bench prints
 * each median with twice its standard error, ±1-3 % in 100 rounds). Two controls run the same
 * code as "no tracer" and show what the wire resolves: a second no-tracer client (same module,
 * its own sockets) and the same build loaded a second time (a byte-identical copy of dist/, so
 * V8 compiles and places it anew). The second client reads 1.00×; the copy has read 0.98–1.03×
 * (ad hoc, 11-27): code placement alone moves a call on the wire by that much, so a ratio within
 * that band is not a cost the wire can attribute to tracing.
 *
 * The same run also measures tracing off above the wire: the same calls on clients whose sender
 * is canned (bench/canned-client.ts), where the SDK's own CPU is all there is.
 * Run alone: `npm run build && tsx bench/index.ts tracing` (or `tsx bench/tracing.ts`).
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ProxyTracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type * as Sdk from '../src/index.js';
import { cannedClient, cpuPerCall } from './canned-client.js';
import { startChild } from './child.js';
import { CREDENTIALS, LOOKUP_ID, payinParams } from './fixtures.js';
import { measure, median } from './stats.js';

export interface TracingRow {
  call: string;
  /** µs of client CPU per call on the wire, no tracer (median of the rounds). */
  none: number;
  /** Per setting: the median of the rounds' ratios to no tracer, and twice its standard error. */
  ratios: Record<Setting, { median: number; spread: number }>;
  /** µs a no-op tracer adds to the SDK's own CPU per call (canned sender, median of rounds). */
  noopAdds: number;
}

/** The clients each round times, "none" first: the controls, then the tracers. */
const SETTINGS = ['none', 'second', 'copy', 'noop', 'bare', 'recording'] as const;
type Setting = (typeof SETTINGS)[number];
type Call = (client: Sdk.PaymentClient) => () => Promise<unknown>;

const CALLS: Record<string, Call> = {
  'payin.create': (client) => () => client.payin.create(payinParams),
  'transactions.get': (client) => () => client.transactions.get(LOOKUP_ID),
};

/** A provider nobody registered hands out no-op tracers, as @opentelemetry/api does before an SDK starts. */
const noopTracer = () => new ProxyTracerProvider().getTracer('payinout');

function clientsOf(sdk: typeof Sdk, copy: typeof Sdk, baseUrl: string): Record<Setting, Sdk.PaymentClient> {
  const of = (build: typeof Sdk, tracer?: Sdk.Tracer) =>
    new build.PaymentClient({ ...CREDENTIALS, baseUrl, ...(tracer ? { tracer } : {}) });
  return {
    none: of(sdk),
    second: of(sdk),
    copy: of(copy),
    noop: of(sdk, noopTracer()),
    bare: of(sdk, bareTracer()),
    recording: of(
      sdk,
      new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer('payinout'),
    ),
  };
}

export async function benchTracing(
  sdk: typeof Sdk,
  { dist = 'dist', block = 500, concurrency = 16, rounds = 100 } = {},
): Promise<TracingRow[]> {
  const copy = await secondInstance(dist);
  const server = await startChild('./envelope-server.ts');
  const clients = clientsOf(sdk, copy, `http://127.0.0.1:${server.port}`);
  const micros = new Map<string, number[]>();
  for (const make of Object.values(CALLS))
    for (const client of Object.values(clients))
      await measure(make(client), { requests: 2_000, concurrency });
  for (let round = 0; round < rounds; round++) {
    for (const [call, make] of Object.entries(CALLS)) {
      // Rotated, so no setting always runs first (or right after the recording one's garbage).
      for (const name of rotate(SETTINGS, round)) {
        const samples = await measure(make(clients[name]), { requests: block, concurrency });
        push(micros, `${call} ${name}`, (samples.cpuMs * 1000) / block);
      }
    }
  }
  await server.stop();
  const adds = await aboveTheWire(sdk, 9);
  return Object.keys(CALLS).map((call) => {
    const of = (name: Setting) => micros.get(`${call} ${name}`)!;
    const ratioOf = (name: Setting) => summary(of(name).map((value, i) => value / of('none')[i]!));
    const ratios = Object.fromEntries(SETTINGS.map((name) => [name, ratioOf(name)])) as TracingRow['ratios'];
    return { call, none: median(of('none')), ratios, noopAdds: adds.get(call)! };
  });
}

/** The median of per-round ratios, and twice the standard error of their mean (a ~95 % band). */
function summary(values: number[]): { median: number; spread: number } {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  const variance = values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (values.length - 1);
  return { median: median(values), spread: 2 * Math.sqrt(variance / values.length) };
}

/**
 * The build in `dist` loaded a second time: a byte-identical copy, so a module instance V8
 * compiles and lays out anew. Kept under node_modules so its imports resolve as dist's do.
 */
async function secondInstance(dist: string): Promise<typeof Sdk> {
  const dir = 'node_modules/.cache/payinout-bench/dist-copy';
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  cpSync(dist, dir, { recursive: true });
  // Under node_modules the project's package.json no longer says its .js files are ES modules.
  writeFileSync(`${dir}/package.json`, '{ "type": "module" }\n');
  return (await import(pathToFileURL(`${dir}/node/index.js`).href)) as typeof Sdk;
}

/** Per call: µs a no-op tracer adds to the SDK's own CPU, canned sender, median of paired rounds. */
async function aboveTheWire(sdk: typeof Sdk, rounds: number): Promise<Map<string, number>> {
  const plain = cannedClient(sdk);
  const noop = cannedClient(sdk, { tracer: noopTracer() });
  const adds = new Map<string, number>();
  for (const [call, make] of Object.entries(CALLS)) {
    const [a, b] = [make(plain), make(noop)];
    await cpuPerCall(a, 5_000);
    await cpuPerCall(b, 5_000);
    const deltas: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const first = round % 2 === 0;
      const x = await cpuPerCall(first ? a : b, 10_000);
      const y = await cpuPerCall(first ? b : a, 10_000);
      deltas.push(first ? y - x : x - y);
    }
    adds.set(call, median(deltas));
  }
  return adds;
}

/**
 * A tracer that hands out spans nobody records and does nothing else: what tracing off costs in
 * payinout's own code, without OpenTelemetry's no-op API (its context and span objects).
 */
function bareTracer(): Sdk.Tracer {
  const span = { isRecording: () => false, setAttribute() {}, addEvent() {}, setStatus() {}, end() {} };
  return { startActiveSpan: (_name, _options, fn) => fn(span) as never };
}

function rotate<T>(items: readonly T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

function push(map: Map<string, number[]>, key: string, value: number): void {
  map.set(key, [...(map.get(key) ?? []), value]);
}

/** The Markdown section of `npm run bench`. */
export function printTracing(rows: TracingRow[], fmt: (value: number, digits?: number) => string): void {
  const ratio = (r: { median: number; spread: number }) =>
    `${fmt(r.median, 3)}× ±${fmt(r.spread * 100, 1)} %`;
  console.log('## Tracing cost (client CPU per call, envelope server in its own process, concurrency 16)\n');
  console.log(
    '| call | no tracer µs | second client ÷ (control) | same build, second copy ÷ (control) | no-op tracer ÷ | bare no-op ÷ | no-op adds above the wire, µs | ÷ no tracer, from it | recording ÷ |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const row of rows) {
    const { second, copy, noop, bare, recording } = row.ratios;
    const derived = (row.none + row.noopAdds) / row.none;
    console.log(
      `| ${row.call} | ${fmt(row.none, 1)} | ${ratio(second)} | ${ratio(copy)} | ${ratio(noop)} | ${ratio(bare)} | ${fmt(row.noopAdds, 2)} | ${fmt(derived, 3)}× | ${fmt(recording.median, 2)}× |`,
    );
  }
  console.log(
    '\n100 interleaved rounds × 500 calls per setting, the order rotated each round; each ratio is the median of the rounds\' own ratios to the no-tracer block of the same round, ± twice the standard error. "no-op tracer" is tracing off (OpenTelemetry API without an SDK): target ≤ 1.01×. "bare no-op" is a hand-written tracer whose spans never record: payinout\'s own share of tracing off. The two controls run the no-tracer code: a second client of the same module, and the same build loaded again from a byte-identical copy of dist/ (V8 compiles and places it anew) — the copy\'s distance from 1.00× is what code placement alone does to a call on the wire, so a tracer ratio within it is not a cost the wire can attribute. "above the wire": the no-op tracer on clients with a canned sender (no socket; 9 paired rounds × 10,000 calls, 64 in flight), over the call\'s CPU on the wire in the next column. "recording" builds real spans (BasicTracerProvider) and drops them.\n',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sdk = (await import(pathToFileURL(process.argv[2] ?? 'dist/node/index.js').href)) as typeof Sdk;
  const { fmt } = await import('./stats.js');
  printTracing(await benchTracing(sdk), fmt);
}
