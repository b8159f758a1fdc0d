/**
 * What the queue suites read back: a batch polled until settled, the queue's shared pause as
 * Redis holds it, and the references that were not created (and sent) exactly once.
 */
import { readPayOutBatch } from '../../src/bullmq/index.js';
import { redisOf } from '../../src/bullmq/keys.js';
import type { QueueServer } from './server.js';
import { type TestQueue, until } from './support.js';

/**
 * The batch once no job of it is pending (fails after `ms`). `redisMayBeAway`: a read that fails
 * (Redis killed and not yet back, as a merchant's poll would meet it) is tried again.
 */
export function settled(q: TestQueue, batchId: string, ms = 60_000, { redisMayBeAway = false } = {}) {
  return until(
    async () => {
      const read = readPayOutBatch(q.queue, batchId);
      const batch = await (redisMayBeAway ? read.catch(() => undefined) : read);
      return batch?.pending === 0 ? batch : undefined;
    },
    ms,
    `batch ${batchId} to settle`,
  );
}

/**
 * When a worker wrote the queue's shared pause to Redis (polled every 10 ms). On a loaded machine a
 * worker may read its 429 late; the pause holds from when it is written, and that is checked.
 */
export function watchPause(q: TestQueue): { seenAt: () => number; stop: () => void } {
  let seen = 0;
  const timer = setInterval(async () => {
    if (seen) return;
    const client = await redisOf(q.queue);
    if (await client.get(`${q.prefix}:${q.name}:payinout:pause`)) seen = Date.now();
  }, 10);
  return { seenAt: () => seen, stop: () => clearInterval(timer) };
}

/** References created more than once, or whose create reached the simulator more than once. */
export function notExactlyOnce(
  server: QueueServer,
  batch: readonly (string | { reference: string })[],
): string[] {
  const references = batch.map((item) => (typeof item === 'string' ? item : item.reference));
  return references.filter((r) => server.payoutsFor(r) !== 1 || server.posted.get(r) !== 1);
}
