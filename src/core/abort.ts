/**
 * Listening to a caller's AbortSignal with one listener per signal, whatever the number of calls
 * sharing it. A listener per call on one signal shared by many concurrent calls (`Promise.all`, a
 * batch) passes Node's limit of 10 and prints MaxListenersExceededWarning; a follower per call
 * made with `AbortSignal.any` leaks on a long-lived signal (Node 20) or slows every call as
 * followers pile up (Node 22). So each signal gets one listener that calls the current set.
 */

interface Fanout {
  listeners: Set<() => void>;
  fire: () => void;
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/**
 * Calls `listener` once when `signal` aborts — at once if it already has; the returned function
 * stops listening. The listener must not throw (the others would not be called).
 */
export function whenAborted(signal: AbortSignal, listener: () => void): () => void {
  if (signal.aborted) {
    listener();
    return () => {};
  }
  let fanout = fanouts.get(signal);
  if (!fanout) {
    const listeners = new Set<() => void>();
    const fire = () => {
      fanouts.delete(signal);
      for (const call of listeners) call();
    };
    fanout = { listeners, fire };
    fanouts.set(signal, fanout);
    signal.addEventListener('abort', fire, { once: true });
  }
  const { listeners, fire } = fanout;
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
    // The last call gone: the signal keeps nothing of ours.
    if (listeners.size === 0 && fanouts.get(signal) === fanout) {
      fanouts.delete(signal);
      signal.removeEventListener('abort', fire);
    }
  };
}
