/** The one failure only the queue produces. */
import { PayinoutError } from '../core/errors.js';

/**
 * This worker stopped holding the reference before its create was sent (it was paused — a long
 * GC, a frozen host — for longer than the lease), so another worker may be settling it: this
 * request was not sent, and the other worker's result is the job's.
 */
export class LeaseLostError extends PayinoutError {
  override name = 'LeaseLostError';
  readonly reference: string;
  /**
   * @param resend - whether this worker had sent the create before (its answer was lost and a
   *   lookup found nothing): only the repeat was withheld then.
   */
  constructor(reference: string, resend = false) {
    const what = resend ? 'was not sent again by this worker' : 'was not sent by this worker';
    super(
      `PayOut '${reference}' ${what}: it lost its claim on the reference (it was paused longer than the lease, lockDuration) and another worker may be settling it. ` +
        'Nothing to do: the job keeps the result of the worker that holds the reference. If this repeats, give workers a longer lockDuration.',
    );
    this.reference = reference;
  }
}

/**
 * The batch's halt record in Redis could not be read (truncated, or written by something else
 * under payinout's key): another worker may have stopped the batch, and for what is unknown. The
 * worker sends nothing more for the batch, as it would for a readable halt.
 */
export class HaltRecordError extends PayinoutError {
  override name = 'HaltRecordError';
  constructor(key: string) {
    super(
      `the halt record of the batch (Redis key '${key}') could not be read: it is truncated or was not written by payinout, so another worker may have stopped the batch for a reason now lost. ` +
        "Check the workers' logs for a refused credential (401/403) or configuration, fix it, then enqueue the batch again under a new batchId: references already sent are recovered, never sent twice.",
    );
  }
}

/**
 * A job's results (and the release of its leases) were refused by Redis after BullMQ had been
 * told the job was done, and again on each retry: emitted as the worker's 'error'. The PayOuts
 * themselves were settled; readPayOutBatch reads them as of unknown outcome once their leases run
 * out, until the batch is enqueued again.
 */
export class ResultsNotSavedError extends PayinoutError {
  override name = 'ResultsNotSavedError';
  constructor(count: number, tries: number, cause: unknown) {
    const why = cause instanceof Error ? cause.message : String(cause);
    super(
      `payinout/bullmq could not save the results of ${count} settled PayOut${count === 1 ? '' : 's'} in Redis (${tries} tries; last: ${why}). ` +
        'readPayOutBatch reports them as of unknown outcome once their leases run out. Once Redis accepts writes again, enqueue the batch again under a new batchId: each PayOut is looked up first, recovered if it was sent, and never sent twice.',
    );
  }
}
