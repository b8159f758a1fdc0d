/** The one failure only the queue produces. */
import { PayinoutError } from '../core/errors.js';

/**
 * This worker stopped holding the reference before its create was sent (it was paused — a long
 * GC, a frozen host — for longer than the lease), so another worker may be settling it: nothing
 * was sent by this worker, and the other worker's result is the job's.
 */
export class LeaseLostError extends PayinoutError {
  override name = 'LeaseLostError';
  readonly reference: string;
  constructor(reference: string) {
    super(
      `PayOut '${reference}' was not sent by this worker: it lost its claim on the reference (it was paused longer than the lease, lockDuration) and another worker may be settling it. ` +
        'Nothing to do: the job keeps the result of the worker that holds the reference. If this repeats, give workers a longer lockDuration.',
    );
    this.reference = reference;
  }
}
