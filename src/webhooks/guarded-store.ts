/**
 * A DedupeStore seen through deadlines: every call settles within `timeoutMs` or rejects with
 * DedupeStoreTimeoutError. A claim (setIfAbsent) that succeeds after its deadline is undone, so
 * a store that comes back does not leave a lease nobody holds.
 */

import { withDeadline } from '../core/deadline.js';
import { DedupeStoreTimeoutError } from './deadline.js';
import type { DedupeStore } from './store.js';

export class GuardedStore {
  readonly inner: DedupeStore;
  readonly timeoutMs: number;

  constructor(inner: DedupeStore, timeoutMs: number) {
    this.inner = inner;
    this.timeoutMs = timeoutMs;
  }

  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    const undoLateClaim = (claimed: boolean) => {
      if (claimed) this.inner.deleteIfEquals(key, value).catch(() => {});
    };
    return this.#timed('setIfAbsent', () => this.inner.setIfAbsent(key, value, ttlMs), undoLateClaim);
  }

  get(key: string): Promise<string | null> {
    return this.#timed('get', () => this.inner.get(key));
  }

  set(key: string, value: string, ttlMs: number): Promise<void> {
    return this.#timed('set', () => this.inner.set(key, value, ttlMs));
  }

  deleteIfEquals(key: string, value: string): Promise<void> {
    return this.#timed('deleteIfEquals', () => this.inner.deleteIfEquals(key, value));
  }

  /**
   * Compare-and-set. A store without `replaceIfEquals` (a custom one written for 0.1) gets a
   * get-then-set: correct unless another caller writes the key between the two calls.
   */
  replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    const inner = this.inner;
    const run = inner.replaceIfEquals
      ? () => inner.replaceIfEquals!(key, expected, value, ttlMs)
      : async () => {
          if ((await inner.get(key)) !== expected) return false;
          await inner.set(key, value, ttlMs);
          return true;
        };
    return this.#timed('replaceIfEquals', run);
  }

  #timed<T>(operation: string, run: () => Promise<T>, late?: (value: T) => void): Promise<T> {
    let work: Promise<T>;
    try {
      work = Promise.resolve(run());
    } catch (error) {
      return Promise.reject(error); // a store that throws synchronously is an unavailable store
    }
    return withDeadline(
      work,
      this.timeoutMs,
      () => new DedupeStoreTimeoutError(operation, this.timeoutMs),
      late,
    );
  }
}
