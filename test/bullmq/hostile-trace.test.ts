/**
 * A hostile tracer on a queue worker's client costs at most its spans: under every
 * `startActiveSpan` fault (each drawn with a random mix of span-method faults), a batch of two
 * PayOuts (one chunk, or one job each) — one of them losing its create's answer, reconciled by its lookup — settles `created`
 * twice, each PayOut POSTed exactly once, and every span handed to payinout is ended exactly
 * once. One in-process
 * worker against the simulator behind a real HTTP server and a real Redis; the worker's client
 * keeps one tracer that each run points at a new hostile one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPayOutWorker, enqueuePayOuts } from '../../src/bullmq/index.js';
import { PaymentClient, type Tracer } from '../../src/index.js';
import { type HostileTracer, hostileTracer, START_FAULTS, tracerFaults } from '../tracing/hostile.js';
import { settled } from './batch.js';
import { MERCHANT, payout, type QueueServer, startQueueServer } from './server.js';
import { REDIS_URL, requireRedis, skipQueue, type TestQueue, testQueue } from './support.js';

let server: QueueServer;
let q: TestQueue;
let current: HostileTracer | undefined;
let closeWorker: () => Promise<void>;

/** The worker client's tracer: every call goes to the run's hostile tracer. */
const switching = {
  startActiveSpan: (...args: unknown[]) =>
    ((current as HostileTracer).tracer.startActiveSpan as (...a: unknown[]) => unknown)(...args),
} as unknown as Tracer;

beforeAll(async () => {
  if (skipQueue) return;
  requireRedis();
  server = await startQueueServer();
  q = testQueue();
  const client = new PaymentClient({ ...MERCHANT, baseUrl: server.url, tracer: switching });
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
afterAll(async () => {
  if (skipQueue) return;
  await closeWorker();
  await q.cleanup();
  await server.close();
});

describe.skipIf(skipQueue)('payinout/bullmq under a hostile tracer', () => {
  // Both modes: a chunk of two runs through runMany, a job of one PayOut through runOne.
  it.each([50, 1])(
    'each startActiveSpan fault, with random span faults: jobs settle as untraced, each PayOut POSTed once (itemsPerJob %i)',
    async (itemsPerJob) => {
      const draws = START_FAULTS.map((start, run) => ({
        start,
        span: fc.sample(tracerFaults, { numRuns: 1, seed: run })[0]!.span,
      }));
      for (const [run, faults] of draws.entries()) {
        current = hostileTracer(faults);
        const references = [`hq${itemsPerJob}-${run}-a`, `hq${itemsPerJob}-${run}-b`];
        server.loseAnswer.add(references[1]!);
        const batch = references.map((reference, n) => payout(n + 1, { reference }));
        const batchId = `hostile-${itemsPerJob}-${run}`;
        await enqueuePayOuts(q.queue, batch, { batchId, itemsPerJob });
        const result = await settled(q, batchId, 30_000);
        const seen = {
          faults,
          outcomes: result.results.map((r) => r.outcome),
          posted: references.map((reference) => server.posted.get(reference)),
        };
        expect(seen).toEqual({ faults, outcomes: ['created', 'created'], posted: [1, 1] });
        await current.settled();
        expect({ faults, badEnds: current.ends().filter((ends) => ends !== 1) }).toEqual({
          faults,
          badEnds: [],
        });
      }
    },
    120_000,
  );
});
