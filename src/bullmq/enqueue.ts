/**
 * `enqueuePayOuts`: one BullMQ job per PayOut, its id derived from the batch and the reference,
 * so enqueueing the same items again adds nothing twice. Every item is checked first: one invalid
 * item is a RequestValidationError naming its index and field, and nothing is enqueued.
 */
import type { Queue } from 'bullmq';
import { RequestValidationError, type ValidationIssue } from '../core/errors.js';
import { closestKey } from '../schemas/suggest.js';
import { BATCH_ID, batchKeys, jobIdOf, newBatchId, redisOf } from './keys.js';
import { addToBatch } from './scripts.js';
import { validatePayOut } from './settle.js';
import type { PayOutJobData } from './worker.js';

/** Options of {@link enqueuePayOuts}. */
export interface EnqueuePayOutsOptions {
  /**
   * Names the batch (letters, digits, `.`, `_`, `-`; up to 100). Enqueueing items again under the
   * same id adds only the references not enqueued yet; a new id enqueues them all again, and each
   * one already sent is then `recovered` (looked up, not sent). Default: a new id.
   */
  batchId?: string;
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

/** Jobs per Redis round trip. */
const CHUNK = 500;

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
  items: readonly unknown[],
  options: EnqueuePayOutsOptions = {},
): Promise<EnqueuedPayOuts> {
  const batchId = checkOptions(options) ?? newBatchId();
  const params = checkItems(items);
  const keys = batchKeys(queue, batchId);
  const client = await redisOf(queue);
  let enqueued = 0;
  for (let start = 0; start < params.length; start += CHUNK) {
    const chunk = params.slice(start, start + CHUNK);
    const ids = chunk.map((item) => jobIdOf(batchId, item.reference as string));
    // Jobs first, then the batch's record of them: a reader never sees an entry without its job.
    // A job id BullMQ already holds is left as it is (so enqueueing again is safe).
    await queue.addBulk(
      chunk.map((item, i) => ({
        name: 'payout',
        data: { batchId, item } satisfies PayOutJobData,
        opts: { jobId: ids[i] as string, attempts: 1, removeOnComplete: false, removeOnFail: false },
      })),
    );
    enqueued += (await addToBatch(client, keys, ids)).filter(Boolean).length;
  }
  return { batchId, enqueued, skipped: params.length - enqueued };
}

function checkOptions(options: EnqueuePayOutsOptions): string | undefined {
  const issues: ValidationIssue[] = [];
  for (const key of Object.keys(options ?? {})) {
    if (key === 'batchId') continue;
    const near = closestKey(key, ['batchId']);
    issues.push({ path: key, message: `unknown option${near ? `; did you mean '${near}'?` : ''}` });
  }
  const { batchId } = options ?? {};
  if (batchId !== undefined && (typeof batchId !== 'string' || !BATCH_ID.test(batchId))) {
    issues.push({ path: 'batchId', message: 'must be 1-100 letters, digits, ".", "_" or "-"' });
  }
  if (issues.length) throw new RequestValidationError('enqueuePayOuts options', issues);
  return batchId;
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
