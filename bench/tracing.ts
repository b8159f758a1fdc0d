/**
 * What tracing costs per call: client CPU (µs, user + system) of `payin.create` and
 * `transactions.get` against the envelope server (own process, keep-alive), without a tracer,
 * with a tracer of OpenTelemetry's no-op provider (what `trace.getTracer()` returns before an SDK
 * is started: "tracing off"), and with a recording SDK tracer (BasicTracerProvider, spans
 * dropped by a no-op processor) for scale. Interleaved round by round, median of the rounds.
 * Run alone: `npm run build && tsx bench/index.ts tracing` (or `tsx bench/tracing.ts`).
 */
import { pathToFileURL } from 'node:url';
import { ProxyTracerProvider } from '@opentelemetry/api';
import { BasicTracerProvider, NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { CREDENTIALS, LOOKUP_ID, payinParams } from './fixtures.js';
import { measure, median } from './stats.js';

export interface TracingRow {
  call: string;
  /** µs of client CPU per call: no tracer, a no-op tracer, a recording tracer. */
  none: number;
  noop: number;
  recording: number;
}

export async function benchTracing(
  sdk: typeof Sdk,
  { requests = 4_000, concurrency = 16, rounds = 5 } = {},
): Promise<TracingRow[]> {
  const server = await startChild('./envelope-server.ts');
  const baseUrl = `http://127.0.0.1:${server.port}`;
  // A provider nobody registered hands out no-op tracers, as @opentelemetry/api does before an SDK starts.
  const tracers = {
    none: undefined,
    noop: new ProxyTracerProvider().getTracer('payinout'),
    recording: new BasicTracerProvider({ spanProcessors: [new NoopSpanProcessor()] }).getTracer('payinout'),
  };
  const clients = Object.fromEntries(
    Object.entries(tracers).map(([name, tracer]) => [
      name,
      new sdk.PaymentClient({ ...CREDENTIALS, baseUrl, ...(tracer ? { tracer } : {}) }),
    ]),
  ) as Record<keyof typeof tracers, Sdk.PaymentClient>;
  const calls = {
    'payin.create': (client: Sdk.PaymentClient) => () => client.payin.create(payinParams),
    'transactions.get': (client: Sdk.PaymentClient) => () => client.transactions.get(LOOKUP_ID),
  };
  const micros = new Map<string, number[]>();
  for (const make of Object.values(calls))
    for (const client of Object.values(clients)) await measure(make(client), { requests: 500, concurrency });
  for (let round = 0; round < rounds; round++) {
    for (const [call, make] of Object.entries(calls)) {
      for (const [name, client] of Object.entries(clients)) {
        const samples = await measure(make(client), { requests, concurrency });
        const key = `${call} ${name}`;
        micros.set(key, [...(micros.get(key) ?? []), (samples.cpuMs * 1000) / requests]);
      }
    }
  }
  await server.stop();
  return Object.keys(calls).map((call) => ({
    call,
    none: median(micros.get(`${call} none`)!),
    noop: median(micros.get(`${call} noop`)!),
    recording: median(micros.get(`${call} recording`)!),
  }));
}

/** The Markdown section of `npm run bench`. */
export function printTracing(rows: TracingRow[], fmt: (value: number, digits?: number) => string): void {
  console.log('## Tracing cost (client CPU per call, envelope server in its own process, concurrency 16)\n');
  console.log(
    '| call | no tracer µs | no-op tracer µs | ÷ no tracer | recording tracer µs | ÷ no tracer |\n|---|--:|--:|--:|--:|--:|',
  );
  for (const row of rows) {
    console.log(
      `| ${row.call} | ${fmt(row.none)} | ${fmt(row.noop)} | ${fmt(row.noop / row.none, 2)}× | ${fmt(row.recording)} | ${fmt(row.recording / row.none, 2)}× |`,
    );
  }
  console.log(
    '\nMedian of 5 interleaved rounds × 4,000 calls. "no-op tracer" is tracing off (OpenTelemetry API without an SDK): target ≈ 1.00×. "recording" builds real spans (BasicTracerProvider) and drops them.\n',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const sdk = (await import(pathToFileURL(process.argv[2] ?? 'dist/node/index.js').href)) as typeof Sdk;
  const { fmt } = await import('./stats.js');
  printTracing(await benchTracing(sdk), fmt);
}
