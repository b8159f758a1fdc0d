/**
 * A 429 with Retry-After pauses every worker of the queue (public-api.md, "Payouts across many
 * machines"): worker child processes settle a batch through the simulator behind a real HTTP
 * server that answers one request with 429; inside its Retry-After no worker sends, after it
 * every worker goes on, and every reference is settled (created, sent) exactly once.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { enqueuePayOuts as enqueue } from '../../src/bullmq/index.js';
import { notExactlyOnce, settled, watchPause } from './batch.js';
import { payout, type Request } from './server.js';
import { queueSuite, skipQueue, startWorker } from './support.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));
const RETRY_AFTER_MS = 2_000;
/** Requests already on their way when the 429 was written to Redis land just after it. */
const IN_FLIGHT_MS = 300;

const suite = queueSuite();

/**
 * Both modes: one job per PayOut; and chunks, small enough (10 of the 40–60 items, one chunk per
 * worker at a time) that every worker holds one when the 429 comes.
 */
const MODES = [
  { itemsPerJob: 1, env: {} },
  { itemsPerJob: 10, env: { CONCURRENCY: '1' } },
];
let mode = MODES[0]!;
const enqueuePayOuts: typeof enqueue = (queue, batch, options) =>
  enqueue(queue, batch, { itemsPerJob: mode.itemsPerJob, ...options });

const start = (names: string[]) =>
  Promise.all(names.map((name) => startWorker(suite.q, suite.server.url, name, mode.env)));

/** Answers the first request `chosen` picks with 429 + Retry-After: 2; returns when it did. */
function limitOnce(chosen: (request: Request) => boolean): () => number {
  let limitedAt = 0;
  suite.server.inject = (request) => {
    if (limitedAt || !chosen(request)) return undefined;
    limitedAt = request.time;
    return { status: 429, headers: { 'retry-after': String(RETRY_AFTER_MS / 1000) } };
  };
  return () => limitedAt;
}

/** What reached the server inside the pause (after the requests already on their way), and after it. */
function aroundPause(limitedAt: number, pauseSeenAt: number) {
  const end = limitedAt + RETRY_AFTER_MS - 100;
  const from = Math.max(limitedAt, pauseSeenAt) + IN_FLIGHT_MS;
  return {
    during: suite.server.requests.filter((r) => r.time > from && r.time < end),
    workersAfter: new Set(suite.server.requests.filter((r) => r.time >= end).map((r) => r.worker)),
  };
}

describe.skipIf(skipQueue).each(MODES)(
  'payinout/bullmq: a 429 pauses every worker (itemsPerJob $itemsPerJob)',
  (m) => {
    beforeEach(() => {
      mode = m;
    });

    it('ONE create answered 429 + Retry-After: 2 s: no create from any of 3 workers inside it, each reference settled once', async () => {
      const batch = items(60);
      let posts = 0;
      const limitedAt = limitOnce((r) => r.method === 'POST' && ++posts === 10);
      suite.workers = await start(['worker-1', 'worker-2', 'worker-3']);
      const pause = watchPause(suite.q);
      const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
      const result = await settled(suite.q, batchId);
      pause.stop();
      expect(limitedAt()).toBeGreaterThan(0);
      expect(result).toMatchObject({ total: 60, done: 60, failed: 0, pending: 0 });
      expect(result.created + result.recovered).toBe(60);
      const { during, workersAfter } = aroundPause(limitedAt(), pause.seenAt());
      // Not a create (nor a lookup) from any worker once the pause is in Redis, until it is over.
      expect(during).toEqual([]);
      expect(workersAfter).toEqual(new Set(['worker-1', 'worker-2', 'worker-3']));
      expect(notExactlyOnce(suite.server, batch)).toEqual([]);
      expect(result.results.map((r) => r.reference)).toEqual(batch.map((p) => p.reference));
    }, 60_000);

    it('a service limiter refusing every request for 2 s from the 10th create: both workers wait, the batch completes once each', async () => {
      const batch = items(40);
      let limitedAt = 0;
      suite.server.inject = (request) => {
        if (!limitedAt && request.method === 'POST' && suite.server.posted.size >= 10)
          limitedAt = request.time;
        if (!limitedAt || request.time >= limitedAt + RETRY_AFTER_MS) return undefined;
        return { status: 429, headers: { 'retry-after': '2' } };
      };
      suite.workers = await start(['worker-1', 'worker-2']);
      const pause = watchPause(suite.q);
      const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
      const result = await settled(suite.q, batchId);
      pause.stop();
      expect(result).toMatchObject({ total: 40, failed: 0 });
      expect(limitedAt).toBeGreaterThan(0);
      const { during, workersAfter } = aroundPause(limitedAt, pause.seenAt());
      expect(during).toEqual([]);
      expect(workersAfter).toEqual(new Set(['worker-1', 'worker-2']));
      expect(notExactlyOnce(suite.server, batch)).toEqual([]);
    }, 60_000);

    it('one 429 on a lookup pauses both workers for its Retry-After', async () => {
      const batch = items(60);
      const limitedAt = limitOnce((r) => r.method === 'GET' && r.reference === 'bulk-12');
      suite.workers = await start(['worker-1', 'worker-2']);
      const pause = watchPause(suite.q);
      const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
      const result = await settled(suite.q, batchId);
      pause.stop();
      expect(result).toMatchObject({ total: 60, failed: 0 });
      const { during, workersAfter } = aroundPause(limitedAt(), pause.seenAt());
      expect(during).toEqual([]);
      expect(workersAfter).toEqual(new Set(['worker-1', 'worker-2']));
      expect(notExactlyOnce(suite.server, batch)).toEqual([]);
    }, 60_000);
  },
);
