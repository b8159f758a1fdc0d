/**
 * The batch's shared pause (the in-memory SharedPause of core/types.ts). A rate limit (429, or
 * any answer with Retry-After) is about the merchant, not one item: the engine (core/retry.ts
 * Pacer) sets it the moment such an answer comes, and every lane waits before its next request.
 */
import { sleep } from '../core/retry.js';
import type { SharedPause } from '../core/types.js';
import type { ItemLock } from './run.js';

const READY = Promise.resolve();

export class PauseGate implements SharedPause {
  #until = 0;

  /** No request of the batch starts before `time` (ms since epoch); a later pause wins. */
  pauseUntil(time: number): void {
    if (time > this.#until) this.#until = time;
  }

  /** Resolves when the batch may send again, or at once when `signal` is aborted. Never rejects. */
  ready(signal?: AbortSignal): Promise<void> {
    // Not paused (nearly always): no async function and no promise of its own, twice a PayOut.
    if (this.#until <= Date.now()) return READY;
    return this.#waitOut(signal);
  }

  async #waitOut(signal?: AbortSignal): Promise<void> {
    for (let wait = this.#until - Date.now(); wait > 0 && !signal?.aborted; wait = this.#until - Date.now()) {
      await sleep(wait, signal).catch(() => {});
    }
  }
}

/** Runs one task per key at a time: two items with one reference never race to create it. */
export class KeyedLock implements ItemLock {
  /** Per key, the last task's end (never rejects): the next task with that key starts after it. */
  readonly #tails = new Map<string, Promise<void>>();

  // Chained with then, not an async function and a promise of its own per task: a free key (the
  // usual case) starts its task at once, with no turn of the microtask queue before it.
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(key);
    const mine = before ? before.then(task) : started(task);
    const done = () => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    };
    const tail: Promise<void> = mine.then(done, done);
    this.#tails.set(key, tail);
    return mine;
  }
}

function started<T>(task: () => Promise<T>): Promise<T> {
  try {
    return task();
  } catch (error) {
    return Promise.reject(error);
  }
}
