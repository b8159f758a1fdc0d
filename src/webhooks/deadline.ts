/**
 * Deadlines for the webhook handler's dependencies (dedupe store, confirming lookup): a store
 * that is down or hung must turn into a 503 the service retries, never a request that hangs.
 * node-redis, by default, queues commands while disconnected and never rejects them; ioredis
 * rejects only after ~20 reconnect attempts. Neither can be trusted to answer in time.
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

/**
 * Settles like `work`, or rejects with `onTimeout()` after `ms`. The timer never keeps a
 * process alive. `late` sees a result that arrived after the deadline (to undo a late claim).
 */
export function withDeadline<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => Error,
  late?: (value: T) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(onTimeout());
    }, ms);
    (timer as { unref?: () => void }).unref?.();
    work.then(
      (value) => {
        clearTimeout(timer);
        if (expired) late?.(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}
