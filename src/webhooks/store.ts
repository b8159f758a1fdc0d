/** The storage contract of webhook dedupe, implemented by MemoryDedupeStore and RedisDedupeStore. */

/** What a deduplicator needs from storage. Each method must be atomic on its own. */
export interface DedupeStore {
  /** Sets `key` to `value` for `ttlMs` only if it is absent (Redis `SET NX PX`); true when set. */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** The value of `key`, or null when it is absent or expired. */
  get(key: string): Promise<string | null>;
  /** Sets `key` to `value` for `ttlMs`, whatever it held. */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Deletes `key` only while it still holds `value` (so an expired lease never frees another's claim). */
  deleteIfEquals(key: string, value: string): Promise<void>;
  /**
   * Sets `key` to `value` for `ttlMs` only while it holds `expected`; true when set. Renews a
   * lease and completes it under its fencing token. Optional for stores written for 0.1: without
   * it a get-then-set is used, which a concurrent writer can slip between.
   */
  replaceIfEquals?(key: string, expected: string, value: string, ttlMs: number): Promise<boolean>;
}
