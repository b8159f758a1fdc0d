/**
 * Tracing of queue jobs: when the worker's client has a `tracer`, each job is a CONSUMER span
 * `payout.queue job` (operation, scrubbed reference, outcome) whose children are the job's lookup
 * and create spans; a lost answer's reconciliation lookup nests under its create. Exported with
 * the OpenTelemetry SDK's in-memory exporter; an in-process worker against the simulator behind a
 * real HTTP server; no credential, PII or URL in any exported span.
 */
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPayOutWorker, enqueuePayOuts as enqueue } from '../../src/bullmq/index.js';
import { PaymentClient } from '../../src/index.js';
import { leaks, otel, SpanKind, SpanStatusCode } from '../tracing/otel.js';
import { settled } from './batch.js';
import { MERCHANT, payout, type QueueServer, startQueueServer } from './server.js';
import { REDIS_URL, requireRedis, skipQueue, type TestQueue, testQueue } from './support.js';

const basic = Buffer.from(`${MERCHANT.username}:${MERCHANT.password}`).toString('base64');

let server: QueueServer;
let q: TestQueue;
let trace: ReturnType<typeof otel>;
let closeWorker: () => Promise<void>;
beforeAll(requireRedis);
beforeEach(async () => {
  server = await startQueueServer();
  q = testQueue();
  trace = otel();
  const client = new PaymentClient({ ...MERCHANT, baseUrl: server.url, tracer: trace.tracer });
  const worker = createPayOutWorker({
    queueName: q.name,
    connection: { url: REDIS_URL },
    client,
    concurrency: 2,
    workerOptions: { prefix: q.prefix },
  });
  closeWorker = () => worker.close();
  await worker.waitUntilReady();
});
afterEach(async () => {
  await closeWorker();
  await q.cleanup();
  await server.close();
});

/** The job spans, by their `payinout.reference`. */
function jobSpans(): Map<unknown, ReadableSpan> {
  return new Map(
    trace.named('payout.queue job').map((span) => [span.attributes['payinout.reference'], span]),
  );
}

const calls = (span: ReadableSpan) => trace.childrenOf(span).map((child) => child.name.split(' ')[0]);

// Both modes: a chunk tells each of its PayOuts to the observers as a job span of its own.
describe.skipIf(skipQueue).each([1, 50])('payinout/bullmq tracing, itemsPerJob %i', (itemsPerJob) => {
  const enqueuePayOuts: typeof enqueue = (queue, batch, options) =>
    enqueue(queue, batch, { itemsPerJob, ...options });

  it('each job is a CONSUMER span, parent of its lookup and create; a lost answer’s lookup nests under its create', async () => {
    // One item whose reference carries its own document number: scrubbed like a log line.
    const doc = payout(3).customer_data.legal_doc;
    const batch = [payout(1), payout(2), { ...payout(3), reference: `doc-${doc}` }];
    server.loseAnswer.add('bulk-2');
    const { batchId } = await enqueuePayOuts(q.queue, batch);
    const result = await settled(q, batchId, 30_000);
    expect(result).toMatchObject({ total: 3, created: 3, failed: 0 });

    const jobs = jobSpans();
    expect(jobs.size).toBe(3);
    for (const span of jobs.values()) {
      expect(span.kind).toBe(SpanKind.CONSUMER);
      expect(span.attributes).toMatchObject({
        'payinout.operation': 'payout.create',
        'payinout.outcome': 'ok',
        'payinout.batch.outcome': 'created',
        'payinout.batch.id': batchId,
        'messaging.system': 'bullmq',
        'messaging.destination.name': q.name,
      });
      expect(span.attributes['payinout.ticket']).toEqual(expect.any(String));
      expect(calls(span)).toEqual(['GET', 'POST']);
      for (const child of trace.childrenOf(span)) expect(child.kind).toBe(SpanKind.CLIENT);
      // A new reference's lookup-first: the miss is the answer it looks for, not a failure.
      const [lookup] = trace.childrenOf(span).filter((child) => child.name.startsWith('GET'));
      expect(lookup!.attributes).toMatchObject({
        'http.response.status_code': 404,
        'payinout.outcome': 'ok',
      });
      expect(lookup!.attributes['error.type']).toBeUndefined();
    }
    expect([...jobs.keys()].sort()).toEqual(['bulk-1', 'bulk-2', 'doc-[REDACTED]'].sort());
    // The lost answer: the create's reconciliation lookup is a child of the create.
    const lost = trace.childrenOf(jobs.get('bulk-2')!).find((span) => span.name.startsWith('POST'))!;
    expect(lost.attributes['payinout.outcome']).toBe('recovered');
    expect(calls(lost)).toEqual(['GET']);

    const secrets = [MERCHANT.password, MERCHANT.token, basic, doc, '://'];
    for (const item of batch) {
      const c = item.customer_data;
      secrets.push(c.email, c.full_name, c.account_number, c.legal_doc);
    }
    expect(leaks(trace.spans(), secrets)).toEqual([]);
  }, 60_000);

  it('a re-run job is `recovered` with its lookup alone; a refused create is a failed job span with error.type', async () => {
    const { batchId } = await enqueuePayOuts(q.queue, [payout(1)]);
    await settled(q, batchId, 30_000);
    server.inject = (request) => (request.method === 'POST' ? { status: 401 } : undefined);
    const again = await enqueuePayOuts(q.queue, [payout(1), payout(2)], { batchId: `${batchId}-again` });
    const result = await settled(q, again.batchId, 30_000);
    expect(result.results.map((r) => r.outcome)).toEqual(['recovered', 'failed']);

    const rerun = trace
      .named('payout.queue job')
      .filter((s) => s.attributes['payinout.batch.id'] === again.batchId);
    const byReference = new Map(rerun.map((span) => [span.attributes['payinout.reference'], span]));
    const recovered = byReference.get('bulk-1')!;
    expect(recovered.attributes['payinout.outcome']).toBe('recovered');
    expect(calls(recovered)).toEqual(['GET']);
    const refused = byReference.get('bulk-2')!;
    expect(refused.attributes).toMatchObject({
      'payinout.outcome': 'failed',
      'error.type': 'AuthenticationError',
    });
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    expect(calls(refused)).toContain('POST');
  }, 60_000);
});
