/**
 * The queue's shared state is timed on one clock, Redis's (issue 24 item 4): worker processes
 * whose clocks differ by a minute — as two hosts' may — still pause for a 429's Retry-After and
 * no longer. A pause written as an epoch time by one host and compared with another host's
 * Date.now() would make the host behind wait a minute more, and its jobs seem to hang.
 */
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts } from '../../src/bullmq/index.js';
import { notExactlyOnce, settled } from './batch.js';
import { payout } from './server.js';
import { queueSuite, skipQueue, startWorker } from './support.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));
const MINUTE = 60_000;

const suite = queueSuite();

/** Answers the first create `worker` sends after `after` creates with 429 + Retry-After: 1. */
function limitOnceFrom(worker: string, after = 5): () => number {
  let limitedAt = 0;
  suite.server.inject = (request) => {
    if (limitedAt || request.method !== 'POST' || request.worker !== worker) return undefined;
    if (suite.server.posted.size < after) return undefined;
    limitedAt = request.time;
    return { status: 429, headers: { 'retry-after': '1' } };
  };
  return () => limitedAt;
}

// Both modes; chunks small enough (5 of 120, one per worker at a time) that both workers hold work.
// 120 PayOuts, not fewer: the pause reaches the other worker through Redis, which on a loaded
// machine took up to ~85 ms, and with 40 that worker sometimes settled every remaining PayOut
// before it heard of the pause (then it had nothing left to do after it, and nothing to show).
const MODES = [
  { itemsPerJob: 1, env: {} },
  { itemsPerJob: 5, env: { CONCURRENCY: '1' } },
];

describe.skipIf(skipQueue).each(MODES)(
  'payinout/bullmq: workers on hosts whose clocks differ (itemsPerJob $itemsPerJob)',
  ({ itemsPerJob, env }) => {
    for (const [limited, skew] of [
      ['worker-1', -MINUTE],
      ['worker-2', +MINUTE],
    ] as const) {
      it(`a 429 met by ${limited}, one worker's clock ${skew / 1000} s off: both wait about 1 s, not a minute`, async () => {
        const batch = items(120);
        const limitedAt = limitOnceFrom(limited);
        suite.workers = await Promise.all([
          startWorker(suite.q, suite.server.url, 'worker-1', env),
          startWorker(suite.q, suite.server.url, 'worker-2', { ...env, CLOCK_OFFSET_MS: String(skew) }),
        ]);
        const { batchId } = await enqueuePayOuts(suite.q.queue, batch, { itemsPerJob });
        const result = await settled(suite.q, batchId, 25_000);
        expect(limitedAt()).toBeGreaterThan(0);
        expect(result).toMatchObject({ total: 120, done: 120, failed: 0, pending: 0 });
        // Both went on after the pause: neither sat out a minute.
        const after = suite.server.requests.filter((r) => r.time > limitedAt() + 900);
        expect(new Set(after.map((r) => r.worker))).toEqual(new Set(['worker-1', 'worker-2']));
        expect(notExactlyOnce(suite.server, batch)).toEqual([]);
      }, 60_000);
    }
  },
);
