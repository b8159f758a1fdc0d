/**
 * What tracing costs per call: client CPU (µs, user + system) of `payin.create` and
 * `transactions.get` against the envelope server (own process, keep-alive), without a tracer,
 * with a tracer of OpenTelemetry's no-op provider (what `trace.getTracer()` returns before an SDK
 * is started: "tracing off"), and with a recording SDK tracer (BasicTracerProvider, spans
 * dropped by a no-op processor) for scale. Interleaved round by round (the order rotated each
 * round), the ratio taken within each round, median of the rounds.
 *
 * Tracing off adds a few hundred nanoseconds to a call of ~50 µs, below what the wire's run-to-run
 * noise (±2-3 % a round) resolves, so the same run also measures it above the wire: the same
 * calls on clients whose sender is canned (bench/canned-client.ts), where the SDK's own CPU is
 * all there is, and states what it adds as a share of the call on the wire.
 * Run alone: `npm run build && tsx bench/index.ts tracing` (or `tsx bench/tracing.ts`).
 */
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
  /** µs of client CPU per call on the wire: no tracer, a no-op tracer, a recording tracer. */
  none: number;
  noop: number;
  recording: number;
  /** µs per call with a hand-written tracer whose spans never record: payinout's own share. */
  bare: number;
  /** Medians of the per-round ratios to no tracer. */
  noopRatio: number;
  bareRatio: number;
  recordingRatio: number;
  /** µs a no-op tracer adds to the SDK's own CPU per call (canned sender, median of rounds). */
  noopAdds: number;
}

type Tracers = { none: undefined; noop: Sdk.Tracer; bare: Sdk.Tracer; recording: Sdk.Tracer };
type Call = (client: Sdk.PaymentClient) => () => Promise<unknown>;

const CALLS: Record<string, Call> = {
  'payin.create': (client) => () => client.payin.create(payinParams),
  'transactions.get': (client) => () => client.transactions.get(LOOKUP_ID),
};

function tracers(): Tracers {
  // A provider nobody registered hands out no-op tracers, as @opentelemetry/api does before an SDK starts.
  return {
    none: undefined,
    noop: new ProxyTracerProvider().getTracer('payinout'),
    bare: bareTracer(),
    recording: new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer('payinout'),
  };
}

export async function benchTracing(
  sdk: typeof Sdk,
  { requests = 4_000, concurrency = 16, rounds = 9 } = {},
): Promise<TracingRow[]> {
  const server = await startChild('./envelope-server.ts');
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const clients = Object.entries(tracers()).map(
    ([name, tracer]) =>
      [name, new sdk.PaymentClient({ ...CREDENTIALS, baseUrl, ...(tracer ? { tracer } : {}) })] as const,
  );
  const micros = new Map<string, number[]>();
  for (const make of Object.values(CALLS))
    for (const [, client] of clients) await measure(make(client), { requests: 500, concurrency });
  for (let round = 0; round < rounds; round++) {
    for (const [call, make] of Object.entries(CALLS)) {
      // Rotated, so no tracer setting always runs first (or right after the recording one's garbage).
      for (const [name, client] of rotate(clients, round)) {
        const samples = await measure(make(client), { requests, concurrency });
        push(micros, `${call} ${name}`, (samples.cpuMs * 1000) / requests);
      }
    }
  }
  await server.stop();
  const adds = await aboveTheWire(sdk, rounds);
  return Object.keys(CALLS).map((call) => {
    const of = (name: string) => micros.get(`${call} ${name}`)!;
    const ratio = (name: string) => median(of(name).map((value, i) => value / of('none')[i]!));
    return {
      call,
      none: median(of('none')),
      noop: median(of('noop')),
      bare: median(of('bare')),
      recording: median(of('recording')),
      noopRatio: ratio('noop'),
      bareRatio: ratio('bare'),
      recordingRatio: ratio('recording'),
      noopAdds: adds.get(call)!,
    };
  });
}

/** Per call: µs a no-op tracer adds to the SDK's own CPU, canned sender, median of paired rounds. */
async function aboveTheWire(sdk: typeof Sdk, rounds: number): Promise<Map<string, number>> {
  const plain = cannedClient(sdk);
  const noop = cannedClient(sdk, { tracer: tracers().noop });
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
  console.log('## Tracing cost (client CPU per call, envelope server in its own process, concurrency 16)\n');
  console.log(
    '| call | no tracer µs | no-op tracer µs | ÷ no tracer | bare no-op tracer ÷ no tracer | no-op adds above the wire, µs | ÷ no tracer, from it | recording tracer µs | ÷ no tracer |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const row of rows) {
    const derived = (row.none + row.noopAdds) / row.none;
    console.log(
      `| ${row.call} | ${fmt(row.none)} | ${fmt(row.noop)} | ${fmt(row.noopRatio, 2)}× | ${fmt(row.bareRatio, 2)}× | ${fmt(row.noopAdds, 2)} | ${fmt(derived, 3)}× | ${fmt(row.recording)} | ${fmt(row.recordingRatio, 2)}× |`,
    );
  }
  console.log(
    '\n9 interleaved rounds × 4,000 calls, the order rotated each round; the ratios are medians of each round\'s own ratio. "no-op tracer" is tracing off (OpenTelemetry API without an SDK): target ≤ 1.01×. "bare no-op" is a hand-written tracer whose spans never record: payinout\'s own share of tracing off, without OpenTelemetry\'s no-op API. The wire\'s rounds vary by ±2-3 %, so the same run also measures what the OpenTelemetry no-op adds above the wire: the same calls with a canned sender (no socket; 9 paired rounds × 10,000 calls, 64 in flight), over the call\'s CPU on the wire in the next column. "recording" builds real spans (BasicTracerProvider) and drops them.\n',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sdk = (await import(pathToFileURL(process.argv[2] ?? 'dist/node/index.js').href)) as typeof Sdk;
  const { fmt } = await import('./stats.js');
  printTracing(await benchTracing(sdk), fmt);
}
