/**
 * The batch's shared pause. A rate limit (429, or any answer with Retry-After) is about the
 * merchant, not one item, so every worker waits before its next request instead of each item
 * burning its own retries against the limit.
 */
import { whenAborted } from '../core/abort.js';

export class PauseGate {
  #until = 0;

  /** No request of the batch starts before `time` (ms since epoch); a later pause wins. */
  pauseUntil(time: number): void {
    if (time > this.#until) this.#until = time;
  }

  /** Resolves when the batch may send again, or at once when `signal` is aborted. Never rejects. */
  async ready(signal?: AbortSignal): Promise<void> {
    for (let wait = this.#until - Date.now(); wait > 0 && !signal?.aborted; wait = this.#until - Date.now()) {
      await pause(wait, signal);
    }
  }
}

/** Sleeps `ms`, or less when `signal` aborts; never rejects. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      stop?.();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const stop = signal && whenAborted(signal, done);
  });
}

/** Runs one task per key at a time: two items with one reference never race to create it. */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key);
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before ? before.then(() => mine) : mine;
    this.#tails.set(key, tail);
    try {
      if (before) await before;
      return await task();
    } finally {
      release();
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    }
  }
}
