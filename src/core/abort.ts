/**
 * Listening to a caller's AbortSignal without adding a listener to it: one signal shared by many
 * concurrent calls (`Promise.all`, a batch) would pass Node's limit of 10 listeners per signal
 * and print a MaxListenersExceededWarning. A signal derived with `AbortSignal.any` follows the
 * caller's without registering a listener on it, and is collected with the call.
 */

/** Calls `listener` once when `signal` aborts; the returned function stops listening. */
export function whenAborted(signal: AbortSignal, listener: () => void): () => void {
  const follower = AbortSignal.any([signal]);
  follower.addEventListener('abort', listener, { once: true });
  return () => follower.removeEventListener('abort', listener);
}
