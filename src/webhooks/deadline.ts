/**
 * The error of a dedupe store that ran out of time. The deadline itself is core/deadline.ts
 * (`withDeadline`), which the store guard (guarded-store.ts) and the confirming lookup use.
 */
import { PayinoutError } from '../core/errors.js';

/** A dedupe-store call did not settle within `storeTimeoutMs`; the handler answered 503. */
export class DedupeStoreTimeoutError extends PayinoutError {
  override name = 'DedupeStoreTimeoutError';
  /** Which store call ran out of time: setIfAbsent, get, set, deleteIfEquals or replaceIfEquals. */
  readonly operation: string;
  readonly timeoutMs: number;
  constructor(operation: string, timeoutMs: number) {
    super(
      `The dedupe store did not answer ${operation} within storeTimeoutMs (${timeoutMs} ms): answered 503, the service will retry. Check that the store (e.g. Redis) is up.`,
    );
    this.operation = operation;
    this.timeoutMs = timeoutMs;
  }
}
