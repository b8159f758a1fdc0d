/**
 * A worker frozen (SIGSTOP: a long GC, a suspended VM) while it settles a PayOut: its jobs move
 * to another worker, which settles them, and the frozen one sends nothing for them when it wakes
 * — wherever it was frozen: after its create left, or after renewing its leases and before it
 * read the answer.
 */
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts, readPayOutBatch } from '../../src/bullmq/index.js';
import { notExactlyOnce, settled } from './batch.js';
import { startRedisProxy } from './redis-proxy.js';
import { payout, type QueueServer } from './server.js';
import { queueSuite, REDIS_URL, skipQueue, startWorker, type WorkerProcess } from './support.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));
const FROZEN_MS = 6_000; // longer than the workers' lease and lock (2 s): BullMQ hands the job on
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const suite = queueSuite();

/** Stops a worker now and wakes it FROZEN_MS later. */
function freeze(worker: WorkerProcess): void {
  worker.child.kill('SIGSTOP');
  setTimeout(() => worker.child.kill('SIGCONT'), FROZEN_MS);
}

// Both modes: a chunk runs on runMany, a job of one PayOut on runOne; the fence is the same.
describe.skipIf(skipQueue).each([50, 1])(
  'payinout/bullmq: a frozen worker, itemsPerJob %i',
  (itemsPerJob) => {
    it('a worker frozen mid-create loses its job to another, which recovers it; the PayOut exists once', async () => {
      const batch = items(6);
      suite.workers = await Promise.all(
        ['worker-1', 'worker-2'].map((name) => startWorker(suite.q, suite.server.url, name)),
      );
      let frozen: WorkerProcess | undefined;
      suite.server.afterCommit = async (request) => {
        if (frozen || request.reference !== 'bulk-3') return;
        frozen = suite.workers.find((w) => w.name === request.worker);
        if (frozen) freeze(frozen);
        await new Promise((resolve) => setTimeout(resolve, 50)); // stopped before its answer is sent
      };
      const { batchId } = await enqueuePayOuts(suite.q.queue, batch, { itemsPerJob });
      const result = await settled(suite.q, batchId);
      expect(frozen).toBeDefined();
      expect(result.failed).toBe(0);
      expect(result.results.find((r) => r.reference === 'bulk-3')?.outcome).toBe('recovered');
      await sleep(FROZEN_MS + 500); // the frozen one wakes up and reads its answer
      expect(notExactlyOnce(suite.server, batch)).toEqual([]);
      expect(
        (await readPayOutBatch(suite.q.queue, batchId)).results.find((r) => r.reference === 'bulk-3')
          ?.outcome,
      ).toBe('recovered');
    }, 60_000);

    it('frozen right after renewing its leases, between lookup and create: on waking it sends nothing', async () => {
      const batch = items(6);
      let frozen: string | undefined;
      // Only worker-1 talks to Redis through the proxy, and its lookups take 1 s (the lease is
      // 2 s, renewed every third): freeze it at a renewal of a reference it has looked up (absent)
      // and not created, so Redis's "still yours" sits unread in its socket while the lease runs
      // out and worker-2 takes over.
      suite.server.beforeLookup = (request) => (request.worker === 'worker-1' ? sleep(1_000) : undefined);
      const proxy = await startRedisProxy(REDIS_URL, (args) => {
        if (frozen) return;
        const reference = renewedReferences(args).find((r) => lookedUpNotSent(suite.server, 'worker-1', r));
        if (!reference) return;
        frozen = reference;
        freeze(suite.workers[0]!);
      });
      suite.closeAfter.push(proxy.close);
      suite.workers = [
        await startWorker(suite.q, suite.server.url, 'worker-1', { REDIS_URL: proxy.url }),
        await startWorker(suite.q, suite.server.url, 'worker-2'),
      ];
      const { batchId } = await enqueuePayOuts(suite.q.queue, batch, { itemsPerJob });
      const result = await settled(suite.q, batchId);
      expect(frozen).toBeDefined();
      expect(result.failed).toBe(0);
      await sleep(FROZEN_MS + 1_500); // worker-1 wakes, reads the stale answer, moves on
      const posts = suite.server.requests.filter((r) => r.method === 'POST' && r.reference === frozen);
      expect(posts.map((r) => r.worker)).toEqual(['worker-2']);
      expect(notExactlyOnce(suite.server, batch)).toEqual([]);
      expect(suite.workers[0]!.output()).not.toMatch(/Unhandled|TypeError/);
    }, 60_000);
  },
);

/**
 * The references of a lease renewal as it reaches Redis (lease.ts, chunk-scripts.ts
 * RENEW_LEASES): a script whose one key is the queue's `…payinout:leases` hash, with the time to
 * live then (reference, token) pairs as arguments; none for any other command.
 */
function renewedReferences(args: string[]): string[] {
  const [command, , keyCount, key] = args;
  if (!/^eval(sha)?$/i.test(command ?? '') || keyCount !== '1' || !key?.endsWith(':payinout:leases'))
    return [];
  const pairs = args.slice(5);
  if (pairs.length === 0 || pairs.length % 2 !== 0) return [];
  return pairs.filter((_, i) => i % 2 === 0);
}

/** `worker` looked `reference` up and has not sent its create yet. */
function lookedUpNotSent(_server: QueueServer, worker: string, reference: string): boolean {
  const mine = suite.server.requests.filter((r) => r.worker === worker && r.reference === reference);
  return mine.some((r) => r.method === 'GET') && !mine.some((r) => r.method === 'POST');
}
