/**
 * A pause announced before a worker's subscription is answered (issue 26 item 6): under load a
 * just-started worker's SUBSCRIBE may be answered long after its first jobs began, and a pause
 * another worker announced in between never reaches it. Its jobs already in flight must still
 * wait for that pause. The worker's Redis traffic goes through a proxy that holds its SUBSCRIBE
 * back until the pause has been announced (as another worker's 429 does, scripts.ts PAUSE_FOR).
 */
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts } from '../../src/bullmq/index.js';
import { redisOf } from '../../src/bullmq/keys.js';
import { pauseFor } from '../../src/bullmq/scripts.js';
import { notExactlyOnce, settled } from './batch.js';
import { startRedisProxy } from './redis-proxy.js';
import { payout } from './server.js';
import { queueSuite, REDIS_URL, skipQueue, startWorker } from './support.js';

const PAUSE_MS = 3_000;
/** The lookup the pause is announced during is answered this much later (the create follows it). */
const LOOKUP_MS = 1_000;

const suite = queueSuite();

describe.skipIf(skipQueue)('payinout/bullmq: a pause announced before the subscription is answered', () => {
  it('a job in flight meanwhile sends no create until the pause ends; each reference settled once', async () => {
    const batch = [payout(1)];
    let release: () => void = () => undefined;
    const subscribed = new Promise<void>((resolve) => {
      release = resolve;
    });
    const proxy = await startRedisProxy(REDIS_URL, (args) =>
      args[0]?.toLowerCase() === 'subscribe' ? subscribed : undefined,
    );
    suite.closeAfter.push(async () => {
      release();
      await proxy.close();
    });
    let announcedAt = 0;
    suite.server.beforeLookup = async () => {
      if (announcedAt) return;
      const client = await redisOf(suite.q.queue);
      await pauseFor(client, `${suite.q.prefix}:${suite.q.name}:payinout:pause`, PAUSE_MS);
      announcedAt = Date.now();
      release(); // the worker's SUBSCRIBE is answered only now: the announcement never reached it
      await new Promise((resolve) => setTimeout(resolve, LOOKUP_MS));
    };
    suite.workers = [await startWorker(suite.q, suite.server.url, 'worker-1', { REDIS_URL: proxy.url })];
    const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
    const result = await settled(suite.q, batchId, 30_000);
    expect(announcedAt).toBeGreaterThan(0);
    expect(result).toMatchObject({ total: 1, created: 1, failed: 0, pending: 0 });
    const early = suite.server.requests.filter(
      (r) => r.method === 'POST' && r.time < announcedAt + PAUSE_MS - 100,
    );
    expect(early).toEqual([]);
    expect(notExactlyOnce(suite.server, batch)).toEqual([]);
  }, 60_000);
});
