/**
 * readPayOutBatch while the batch's last job settles (issue 26 item 6): a job's result is saved,
 * then BullMQ completes the job and removes it (removeOnComplete). A reader that found no result
 * a moment before, and then finds the job gone, must read the result the job left, never report
 * the PayOut as lost ('failed', outcome unknown) while it was created. The reader is held between
 * its two reads by a proxy in front of Redis, so the job settles exactly in between.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts, readPayOutBatch } from '../../src/bullmq/index.js';
import { settled } from './batch.js';
import { startRedisProxy } from './redis-proxy.js';
import { payout } from './server.js';
import { queueSuite, REDIS_URL, skipQueue, startWorker, until } from './support.js';

const suite = queueSuite();

describe.skipIf(skipQueue).each([{ itemsPerJob: 1 }, { itemsPerJob: 2 }])(
  'payinout/bullmq: reading a batch as its last job settles (itemsPerJob $itemsPerJob)',
  ({ itemsPerJob }) => {
    it("the job saves its result and is removed between the reader's reads: created, not lost", async () => {
      const batch = [payout(1), payout(2)];
      const { batchId } = await enqueuePayOuts(suite.q.queue, batch, { itemsPerJob });
      const direct = new Redis(REDIS_URL);
      const base = `${suite.q.prefix}:${suite.q.name}`;
      const results = `${base}:payinout:batch:${batchId}:results`;
      let release: () => void = () => undefined;
      let held = false;
      // The reader's first read of the results happened (nothing settled yet); hold what follows.
      const proxy = await startRedisProxy(REDIS_URL, (args) => {
        if (held || args[0]?.toLowerCase() !== 'hmget' || !args[1]?.endsWith(':index')) return undefined;
        held = true;
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      });
      suite.closeAfter.push(proxy.close);
      const reader = new Queue(suite.q.name, { connection: { url: proxy.url }, prefix: suite.q.prefix });
      suite.closeAfter.push(() => reader.close());
      try {
        const reading = readPayOutBatch(reader, batchId);
        await until(async () => (held ? true : undefined), 10_000, 'the reader to read the results');
        suite.workers = [await startWorker(suite.q, suite.server.url, 'worker-1')];
        // Every item's result saved, and every job completed (and so removed: none is active).
        await until(
          async () => {
            const saved = await direct.hlen(results);
            const active = await direct.llen(`${base}:active`);
            const waiting = await direct.llen(`${base}:wait`);
            return saved === batch.length && active + waiting === 0 ? true : undefined;
          },
          20_000,
          'the batch to settle and its jobs to be removed',
        );
        release();
        const state = await reading;
        expect(state).toMatchObject({ total: 2, done: 2, created: 2, failed: 0, pending: 0 });
        expect(state.results.map((r) => r.outcome)).toEqual(['created', 'created']);
        expect(await settled(suite.q, batchId)).toMatchObject({ created: 2, failed: 0 });
      } finally {
        release();
        direct.disconnect();
      }
    }, 60_000);
  },
);
