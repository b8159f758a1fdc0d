/**
 * Whether a tracer records is asked per call, never decided once per client: a tracer whose
 * spans nobody records now (OpenTelemetry's API before the SDK starts, a sampler that drops this
 * trace) may record the next call's. A client that remembered "no-op" would lose those spans.
 */
import { ProxyTracerProvider } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SamplingDecision,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, it } from 'vitest';
import { startFaultServer } from '../faults/server.js';
import './otel.js';

function recorder(sampler?: { shouldSample(): { decision: SamplingDecision }; toString(): string }) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
    ...(sampler ? { sampler } : {}),
  });
  return { provider, names: () => exporter.getFinishedSpans().map((span) => span.name) };
}

describe('a tracer that records nothing now may record later', () => {
  it('a tracer taken from the API before the SDK started: calls after it started get spans', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const api = new ProxyTracerProvider();
    const client = server.client({ tracer: api.getTracer('payinout') });
    await client.merchant.getBalance();
    await client.merchant.getBalance();
    const sdk = recorder();
    api.setDelegate(sdk.provider);
    await client.merchant.getBalance();
    expect(sdk.names()).toHaveLength(1);
  });

  it('a sampler that drops the first traces: the calls it samples later get spans', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    let asked = 0;
    const sdk = recorder({
      shouldSample: () => ({
        decision: ++asked <= 2 ? SamplingDecision.NOT_RECORD : SamplingDecision.RECORD_AND_SAMPLED,
      }),
      toString: () => 'first-two-dropped',
    });
    const client = server.client({ tracer: sdk.provider.getTracer('payinout') });
    for (let i = 0; i < 4; i++) await client.merchant.getBalance();
    expect(asked).toBe(4);
    expect(sdk.names()).toHaveLength(2);
  });
});
