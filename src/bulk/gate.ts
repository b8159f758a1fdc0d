/**
 * The batch's shared pause (the in-memory SharedPause of core/types.ts). A rate limit (429, or
 * any answer with Retry-After) is about the merchant, not one item: the engine (core/retry.ts
 * Pacer) sets it the moment such an answer comes, and every lane waits before its next request.
 */
import { sleep } from '../core/retry.js';
import type { SharedPause } from '../core/types.js';
import type { ItemLock } from './run.js';

export class PauseGate implements SharedPause {
  #until = 0;

  /** No request of the batch starts before `time` (ms since epoch); a later pause wins. */
  pauseUntil(time: number): void {
    if (time > this.#until) this.#until = time;
  }

  /** Resolves when the batch may send again, or at once when `signal` is aborted. Never rejects. */
  async ready(signal?: AbortSignal): Promise<void> {
    for (let wait = this.#until - Date.now(); wait > 0 && !signal?.aborted; wait = this.#until - Date.now()) {
      await sleep(wait, signal).catch(() => {});
    }
  }
}

/** Runs one task per key at a time: two items with one reference never race to create it. */
export class KeyedLock implements ItemLock {
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
