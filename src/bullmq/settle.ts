/**
 * The queue's one door into the runner for "many" (src/bulk/): a queue job — a chunk of a batch,
 * one PayOut or many — runs its items through the same runner and PayOut step as `createMany`:
 * looked up first, never sent twice, `recovered` on a re-run, results in input order. Every use
 * of src/bulk/ by payinout/bullmq goes through this file, so a rework of the runner re-points one
 * file.
 */

import { KeyedLock, PauseGate } from '../bulk/gate.js';
import { BatchHalt } from '../bulk/halt.js';
import { type ItemLock, payOutStep, referenceOf, validatePayOut } from '../bulk/item.js';
import type { RunHalt } from '../bulk/run.js';
import { runMany, runOne } from '../bulk/runner.js';
import { BATCH_CLIENT, type BatchClient, type PayOutBatchResult } from '../bulk/types.js';
import type { JobStart } from '../core/observer-events.js';
import type { SharedPause } from '../core/types.js';

export { BatchAbortedError, BatchHaltedError, ReferenceConflictError } from '../bulk/errors.js';
export { checkConcurrency } from '../bulk/options.js';
export type { BatchClient, PayOutBatchResult };
export { BATCH_CLIENT, BatchHalt, KeyedLock, PauseGate, referenceOf, validatePayOut };

/** Where a queue job came from: its queue and its batch. */
export type JobSite = Omit<JobStart, 'item' | 'reference'>;

/** What one job's items are settled with: the worker's client and pause, the job's leases and batch halt. */
export interface JobContext {
  client: BatchClient;
  pause: SharedPause;
  lock: ItemLock;
  halt: RunHalt;
  maxRetries: number;
  /** Items of the job in flight at once. */
  concurrency: number;
  site: JobSite;
}

const COUNTS = ['created', 'recovered', 'failed'] as const;

/**
 * Settles every item of one job, each told to the client's observers as a queue job of its own
 * (a tracer: one span per PayOut, as in one-job-per-PayOut mode); results in the job's order.
 * Never rejects for an item (each gets a result).
 */
export async function settleJob(items: readonly unknown[], ctx: JobContext): Promise<PayOutBatchResult[]> {
  const step = payOutStep({ client: ctx.client, lock: ctx.lock, maxRetries: ctx.maxRetries });
  const { observers } = ctx.client;
  const shared = {
    pause: ctx.pause,
    halt: ctx.halt,
    around:
      observers &&
      ((item: unknown, _i: number, settle: () => Promise<PayOutBatchResult>) =>
        observers.around('job', { item, reference: referenceOf(item), ...ctx.site }, settle)),
  };
  // One PayOut a job (itemsPerJob: 1): the same step and run, without the pool.
  if (items.length === 1) return [await runOne(items[0], step, shared)];
  const results: PayOutBatchResult[] = [];
  await runMany(items, step, {
    ...shared,
    concurrency: Math.max(1, Math.min(ctx.concurrency, items.length)),
    total: items.length,
    counts: COUNTS,
    countOf: (result) => result.outcome,
    sink: (result) => {
      results.push(result);
    },
  });
  return results;
}
