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
