/**
 * The one deadline race of the SDK, for work it does not control and must not wait on forever:
 * the webhook handler's dependencies (a dedupe store that is down or hung must turn into a 503 the
 * service retries — node-redis, by default, queues commands while disconnected and never rejects
 * them; ioredis rejects only after ~20 reconnect attempts), the confirming lookup, and the CLI's
 * wait for a queue's Redis connection.
 */

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
