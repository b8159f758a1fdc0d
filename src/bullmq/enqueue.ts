/**
 * `enqueuePayOuts`: BullMQ jobs of `itemsPerJob` PayOuts each (one job per PayOut with 1), their
 * ids derived from the batch and the references, so enqueueing the same items again adds nothing
 * twice. Every item is checked first: one invalid
 * item is a RequestValidationError naming its index and field, and nothing is enqueued.
 */
import type { Queue, RedisClient } from 'bullmq';
import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { type OptionRule, optionProblems } from '../core/options.js';
import type { PayOutCreateParams } from '../schemas/payout.js';
import type { PayOutJobData } from './job.js';
import { BATCH_ID, batchKeys, jobIdOf, newBatchId, redisOf } from './keys.js';
import { addToBatch } from './scripts.js';
import { validatePayOut } from './settle.js';

/** Options of {@link enqueuePayOuts}. */
export interface EnqueuePayOutsOptions {
  /**
   * Names the batch (letters, digits, `.`, `_`, `-`; up to 100). Enqueueing items again under the
   * same id adds only the references not enqueued yet; a new id enqueues them all again, and each
   * one already sent is then `recovered` (looked up, not sent). Default: a new id.
   */
  batchId?: string;
  /**
   * PayOuts per job, 1 to 1000. A chunk of 50 (the default) costs Redis and the workers a
   * fraction of what one job per PayOut costs (docs/performance.md, "The queue"); 1 makes one
   * job per PayOut, for dashboards that show each. Either way each PayOut has its own result,
   * lease and lookup-first, and `readPayOutBatch` reads the same.
   */
  itemsPerJob?: number;
}

/** What {@link enqueuePayOuts} added. */
export interface EnqueuedPayOuts {
  /** The batch's id: pass it to `readPayOutBatch` (the one given, or a new one). */
  batchId: string;
  /** Jobs added by this call. */
  enqueued: number;
  /** Items whose reference this batch already holds: nothing added for them. */
  skipped: number;
}

/** PayOuts added per round trip to Redis. */
const ROUND = 500;
/** PayOuts per job unless `itemsPerJob` says otherwise (bench/queue.ts measures the choice). */
export const DEFAULT_ITEMS_PER_JOB = 50;
const MAX_ITEMS_PER_JOB = 1_000;

/**
 * Adds one job per PayOut to a BullMQ queue, for `createPayOutWorker`'s workers on any number of
 * hosts. Every item is validated first: an invalid one, or a reference repeated within the call,
 * is a `RequestValidationError` naming `items[i].field`, and nothing is enqueued. Job data holds
 * the PayOut params and the batch id, never a credential. Guide:
 * node_modules/payinout/docs/bulk-payouts.md or https://github.com/payinout/payinout/blob/main/docs/bulk-payouts.md#across-many-machines-the-queue
 * @example
 * const queue = new Queue('payouts', { connection });
 * const { batchId } = await enqueuePayOuts(queue, payouts);
 * // later, from any host:
 * const state = await readPayOutBatch(queue, batchId);
 */
export async function enqueuePayOuts(
  queue: Queue,
  items: readonly PayOutCreateParams[],
  options: EnqueuePayOutsOptions = {},
): Promise<EnqueuedPayOuts> {
  const checked = checkOptions(options);
  const batchId = checked.batchId ?? newBatchId();
  const params = checkItems(items);
  const keys = batchKeys(queue, batchId);
  const client = await redisOf(queue);
  const perJob = checked.itemsPerJob;
  // Whole chunks per round, so a round never splits a job.
  const round = perJob * Math.max(1, Math.floor(ROUND / perJob));
  let enqueued = 0;
  for (let start = 0; start < params.length; start += round) {
    const part = params.slice(start, start + round);
    const fresh = await notInBatch(client, keys.index, batchId, part);
    const jobs = jobsOf(batchId, fresh, perJob);
    // Jobs first, then the batch's record of them: a reader never sees an entry without its job.
    // A job id BullMQ already holds is left as it is (so enqueueing again is safe).
    await queue.addBulk(
      jobs.map((job) => ({ name: 'payout', data: job.data, opts: { ...JOB_OPTIONS, jobId: job.id } })),
    );
    const entries = jobs.flatMap((job) => job.itemIds.map((itemId) => ({ itemId, jobId: job.id })));
    enqueued += (await addToBatch(client, keys, entries)).filter(Boolean).length;
  }
  return { batchId, enqueued, skipped: params.length - enqueued };
}

/**
 * A completed job is removed at once: its result is payinout's own record (saved before the job
 * completes, read by readPayOutBatch), so BullMQ keeping it would store every result twice and
 * cost a command more per job. A failed job is kept, for the dashboards that show failures.
 */
const JOB_OPTIONS = { attempts: 1, removeOnComplete: true, removeOnFail: false };

interface NewJob {
  id: string;
  data: PayOutJobData;
  itemIds: string[];
}

/**
 * The jobs of `items`: one per PayOut (its id the PayOut's, as in 0.3), or chunks of `perJob`
 * whose id names the batch, the chunk's first reference and its size — the same items enqueued
 * again give the same ids, so BullMQ adds nothing twice.
 */
function jobsOf(batchId: string, items: Record<string, unknown>[], perJob: number): NewJob[] {
  const jobs: NewJob[] = [];
  for (let i = 0; i < items.length; i += perJob) {
    const chunk = items.slice(i, i + perJob);
    const itemIds = chunk.map((item) => jobIdOf(batchId, item.reference as string));
    if (perJob === 1) {
      jobs.push({ id: itemIds[0]!, data: { batchId, item: chunk[0]! }, itemIds });
      continue;
    }
    const id = `payouts|${batchId}|${encodeURIComponent(chunk[0]!.reference as string)}|${chunk.length}`;
    jobs.push({ id, data: { batchId, items: chunk }, itemIds });
  }
  return jobs;
}

/**
 * The items whose reference the batch does not hold yet: a chunk is never added twice over, and a
 * job BullMQ already removed (completed) is not added again.
 */
async function notInBatch(
  client: RedisClient,
  index: string,
  batchId: string,
  items: Record<string, unknown>[],
): Promise<Record<string, unknown>[]> {
  const ids = items.map((item) => jobIdOf(batchId, item.reference as string));
  const known = await client.hmget(index, ...ids);
  return items.filter((_, i) => known[i] === null);
}

/** enqueuePayOuts' options, checked by core/options.ts's rule tables like every other option. */
const RULES: Readonly<Record<string, OptionRule>> = {
  batchId: {
    valid: (value) => typeof value === 'string' && BATCH_ID.test(value),
    expects: '1-100 letters, digits, ".", "_" or "-"',
  },
  itemsPerJob: {
    valid: (value) =>
      typeof value === 'number' && Number.isSafeInteger(value) && value >= 1 && value <= MAX_ITEMS_PER_JOB,
    expects: `a whole number from 1 to ${MAX_ITEMS_PER_JOB}`,
  },
};

function checkOptions(options: EnqueuePayOutsOptions): { batchId?: string; itemsPerJob: number } {
  const given = (options ?? {}) as Record<string, unknown>;
  const problems = optionProblems(given, Object.keys(RULES), RULES);
  if (problems.length) {
    const issues: ValidationIssue[] = problems.map((p) => ({ path: p.key, message: p.message }));
    throw new RequestValidationError('enqueuePayOuts options (nothing was enqueued)', issues);
  }
  const { batchId, itemsPerJob = DEFAULT_ITEMS_PER_JOB } = options ?? {};
  return batchId === undefined ? { itemsPerJob } : { batchId, itemsPerJob };
}

/** Every item valid and each reference once, or a RequestValidationError naming them all. */
function checkItems(items: readonly unknown[]): Record<string, unknown>[] {
  if (!Array.isArray(items)) {
    throw new RequestValidationError('PayOut batch', [
      { path: '(items)', message: 'must be an array of PayOut params' },
    ]);
  }
  const issues: ValidationIssue[] = [];
  const seen = new Map<string, number>();
  const params = items.map((item, index) => {
    const checked = validatePayOut(item);
    if ('error' in checked) {
      for (const issue of checked.error.issues) {
        issues.push({ path: `items[${index}]${issue.path ? `.${issue.path}` : ''}`, message: issue.message });
      }
      return {};
    }
    const { reference } = checked.params;
    const first = seen.get(reference);
    // One job per batch and reference: a second item with it would be dropped unseen.
    if (first !== undefined) {
      issues.push({
        path: `items[${index}].reference`,
        message: `repeats items[${first}].reference; a reference names one PayOut`,
      });
    } else seen.set(reference, index);
    return checked.params as Record<string, unknown>;
  });
  if (issues.length) throw new RequestValidationError(`PayOut batch (nothing was enqueued)`, issues);
  return params;
}
