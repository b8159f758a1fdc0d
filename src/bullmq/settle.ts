/**
 * The queue's one door into the batch engine (src/bulk/): a queue job settles its PayOut through
 * the same per-item entry point as `createMany` — looked up first, never sent twice, `recovered`
 * on a re-run. Every use of src/bulk/ by payinout/bullmq goes through this file, so a rework of
 * the engine re-points one file.
 */

import type { JobStart } from '../bulk/events.js';
import { KeyedLock, PauseGate } from '../bulk/gate.js';
import { BatchHalt } from '../bulk/halt.js';
import { type ItemContext, settleItem, validatePayOut } from '../bulk/item.js';
import { BATCH_CLIENT, type BatchClient, type PayOutBatchResult } from '../bulk/types.js';

export { BatchAbortedError, BatchHaltedError, ReferenceConflictError } from '../bulk/errors.js';
export type { BatchClient, PayOutBatchResult };

/** Where a queue job came from: its queue and its batch. */
export type JobSite = Omit<JobStart, 'item'>;
export { BATCH_CLIENT, BatchHalt, KeyedLock, PauseGate, validatePayOut };

/** What one job is settled with: the worker's client and gate, the job's lease and batch halt. */
export type JobContext = ItemContext;

/** Settles one job's PayOut; never rejects (the engine gives every item a result). */
export function settlePayOut(item: unknown, ctx: JobContext): Promise<PayOutBatchResult> {
  return settleItem(item, ctx);
}

/** Settles one job's PayOut, told to the client's observers (a tracer: a span of its own). */
export function settleTraced(item: unknown, ctx: JobContext, job: JobSite): Promise<PayOutBatchResult> {
  const { observers } = ctx.client;
  if (!observers) return settlePayOut(item, ctx);
  return observers.around('job', { ...job, item }, () => settlePayOut(item, ctx));
}

export { checkConcurrency } from '../bulk/batch.js';
