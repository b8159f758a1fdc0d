/**
 * `readPayOutBatch` while jobs complete: a completed job is removed from BullMQ right after its
 * result is saved, so a reader that read "no result yet" and then "no job any more" in two steps
 * took a job that had just completed for one that vanished, and reported its created PayOut as
 * failed. Here a reader goes through a Redis proxy that holds it before each of its commands in
 * turn while the job completes (the create's answer is held by the server until then): whichever
 * two commands the completion lands between, the PayOut reads as pending or created, never failed.
 * An in-process worker against the simulator behind a real HTTP server and a real Redis.
 */
import { Queue } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createPayOutWorker, enqueuePayOuts, readPayOutBatch } from '../../src/bullmq/index.js';
import { PaymentClient } from '../../src/index.js';
import { startRedisProxy } from './redis-proxy.js';
import { MERCHANT, payout } from './server.js';
import { queueSuite, REDIS_URL, skipQueue, until } from './support.js';

const suite = queueSuite();

/** Holds the `at`-th command the proxy sees from now on, until released. */
interface Hold {
  at: number;
  seen: number;
  reached: () => void;
  released: Promise<void>;
}

/** What a reader said of the one PayOut of a batch. */
async function outcomeOf(reading: Promise<Awaited<ReturnType<typeof readPayOutBatch>>>) {
  const state = await reading;
  const [result] = state.results;
  if (!result)
    return state.pending === 1 ? 'pending' : `neither pending nor settled: ${JSON.stringify(state)}`;
  return result.error ? `${result.outcome}: ${result.error.message}` : result.outcome;
}

describe.skipIf(skipQueue)('readPayOutBatch while a job completes', () => {
  for (const itemsPerJob of [1, 50]) {
    it(`itemsPerJob ${itemsPerJob}: a job completing between any two of a reader's commands reads pending or created`, async () => {
      const { server, q } = suite;
      let answer: (() => void) | undefined;
      server.afterCommit = () => new Promise<void>((resolve) => (answer = resolve));
      let hold: Hold | undefined;
      const proxy = await startRedisProxy(REDIS_URL, () => {
        if (!hold || ++hold.seen !== hold.at) return;
        hold.reached();
        return hold.released;
      });
      const reader = new Queue(q.name, { connection: { url: proxy.url }, prefix: q.prefix });
      const worker = createPayOutWorker({
        queueName: q.name,
        connection: { url: REDIS_URL },
        client: new PaymentClient({ ...MERCHANT, baseUrl: server.url }),
        workerOptions: { prefix: q.prefix },
      });
      suite.closeAfter.push(
        () => worker.close(),
        () => reader.close(),
        () => proxy.close(),
      );
      await Promise.all([reader.waitUntilReady(), worker.waitUntilReady()]);
      const seen: string[] = [];
      for (let at = 1; at <= 20; at++) {
        const reference = `race-${itemsPerJob}-${at}`;
        const { batchId } = await enqueuePayOuts(q.queue, [payout(at, { reference })], {
          batchId: `race-${at}`,
          itemsPerJob,
        });
        await until(async () => answer, 10_000, `the create of ${reference} to commit`);
        let release = () => {};
        const reached = new Promise<boolean>((resolve) => {
          const released = new Promise<void>((done) => (release = done));
          hold = { at, seen: 0, reached: () => resolve(true), released };
        });
        const reading = readPayOutBatch(reader, batchId);
        const stopped = await Promise.race([reached, reading.then(() => false)]);
        // The job completes (its result saved, then BullMQ removes it) while the reader waits.
        answer?.();
        answer = undefined;
        await until(
          async () => (await q.queue.getActiveCount()) + (await q.queue.getWaitingCount()) === 0 || undefined,
          10_000,
          `the job of ${reference} to complete`,
        );
        hold = undefined;
        release();
        seen.push(await outcomeOf(reading));
        if (!stopped) break; // the reader sent fewer than `at` commands: every gap was tried
      }
      expect(seen.length).toBeGreaterThan(2);
      expect(seen.filter((outcome) => outcome !== 'pending' && outcome !== 'created')).toEqual([]);
      expect(seen).toContain('created');
      expect([...server.posted.values()].filter((n) => n !== 1)).toEqual([]);
    }, 60_000);
  }
});
