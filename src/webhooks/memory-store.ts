/**
 * MemoryDedupeStore: one process's dedupe state, bounded, every operation O(1).
 *
 * A Map plus a doubly linked recency list. The old store re-inserted Map entries to keep LRU
 * order, which leaves deleted slots that `keys().next()` walks on every eviction (55–102 µs
 * per write at 400k keys); here recency moves list links and the Map is only written when a
 * key appears or leaves. Evicting a key before its expiry means a retry of that event would be
 * processed again, so it is counted and logged, never silent.
 */

import { ANY, FUNCTION, type OptionTable, positive } from '../core/options.js';
import type { Logger } from '../core/transport.js';
import { checkWebhookOptions } from './options.js';
import type { DedupeStore } from './store.js';

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /**
   * Bound on the number of keys; the least recently used go first. Default 100,000: a processed
   * event is kept 7 days, so that holds ~14,000 events a day. A key with a UUID ticket takes
   * about 630 bytes of heap (~63 MB at the default).
   */
  maxKeys?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
  /** Told (warn) when an unexpired key is evicted: at the first, then at most once a minute. Default console. */
  logger?: Pick<Logger, 'warn'>;
}

interface Entry {
  readonly key: string;
  value: string;
  expiresAt: number;
  newer: Entry | undefined;
  older: Entry | undefined;
}

const WARN_EVERY_MS = 60_000;

const MEMORY_STORE_OPTIONS: OptionTable<MemoryDedupeStoreOptions> = {
  maxKeys: positive('keys'),
  now: FUNCTION,
  logger: ANY,
};

/**
 * One process only: an LRU map with per-key expiry; every operation is O(1) and synchronous,
 * hence atomic. When full, the least recently used key is evicted; if it had not expired yet,
 * `evictedUnexpired` grows and the logger warns (raise `maxKeys`, or use RedisDedupeStore).
 * @example
 * const store = new MemoryDedupeStore({ maxKeys: 500_000, logger });
 * const dedupe = new WebhookDeduplicator({ store });
 */
export class MemoryDedupeStore implements DedupeStore {
  readonly maxKeys: number;
  readonly #now: () => number;
  readonly #logger: Pick<Logger, 'warn'>;
  readonly #entries = new Map<string, Entry>();
  #newest: Entry | undefined;
  #oldest: Entry | undefined;
  #evictedUnexpired = 0;
  #warnedAt = Number.NEGATIVE_INFINITY;
  #evictedSinceWarning = 0;

  constructor(options: MemoryDedupeStoreOptions = {}) {
    checkWebhookOptions('new MemoryDedupeStore()', options, MEMORY_STORE_OPTIONS);
    this.maxKeys = options.maxKeys ?? 100_000;
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger ?? console;
  }

  /** Number of keys held, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  /** How many keys were evicted before they expired (each one a retry that would run again). */
  get evictedUnexpired(): number {
    return this.#evictedUnexpired;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#live(key)) return false;
    this.#write(key, value, ttlMs);
    return true;
  }

  /** The value of `key`, or null when absent or expired. */
  async get(key: string): Promise<string | null> {
    return this.#live(key)?.value ?? null;
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#write(key, value, ttlMs);
  }

  async deleteIfEquals(key: string, value: string): Promise<void> {
    const entry = this.#live(key);
    if (entry?.value === value) this.#unlink(entry);
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs: number): Promise<boolean> {
    const entry = this.#live(key);
    if (entry?.value !== expected) return false;
    entry.value = value;
    entry.expiresAt = this.#now() + ttlMs;
    return true;
  }

  /** The entry of an unexpired key, marked most recently used; an expired one is dropped. */
  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#unlink(entry);
      return undefined;
    }
    this.#touch(entry);
    return entry;
  }

  #write(key: string, value: string, ttlMs: number): void {
    const expiresAt = this.#now() + ttlMs;
    const entry = this.#entries.get(key);
    if (entry) {
      entry.value = value;
      entry.expiresAt = expiresAt;
      this.#touch(entry);
      return;
    }
    const added: Entry = { key, value, expiresAt, newer: undefined, older: undefined };
    this.#entries.set(key, added);
    this.#linkNewest(added);
    if (this.#entries.size > this.maxKeys && this.#oldest) this.#evict(this.#oldest);
  }

  #evict(entry: Entry): void {
    this.#unlink(entry);
    if (entry.expiresAt <= this.#now()) return;
    this.#evictedUnexpired++;
    this.#evictedSinceWarning++;
    const now = this.#now();
    if (now - this.#warnedAt < WARN_EVERY_MS) return;
    this.#logger.warn(
      `MemoryDedupeStore is full (maxKeys ${this.maxKeys}): ${this.#evictedSinceWarning} unexpired key(s) evicted; a retry of those events would run again. Raise maxKeys or use RedisDedupeStore.`,
      { evictedUnexpired: this.#evictedUnexpired, maxKeys: this.maxKeys },
    );
    this.#warnedAt = now;
    this.#evictedSinceWarning = 0;
  }

  #touch(entry: Entry): void {
    if (entry === this.#newest) return;
    this.#detach(entry);
    this.#linkNewest(entry);
  }

  #linkNewest(entry: Entry): void {
    entry.older = this.#newest;
    entry.newer = undefined;
    if (this.#newest) this.#newest.newer = entry;
    this.#newest = entry;
    this.#oldest ??= entry;
  }

  #detach(entry: Entry): void {
    if (entry.newer) entry.newer.older = entry.older;
    else this.#newest = entry.older;
    if (entry.older) entry.older.newer = entry.newer;
    else this.#oldest = entry.newer;
    entry.newer = undefined;
    entry.older = undefined;
  }

  #unlink(entry: Entry): void {
    this.#detach(entry);
    this.#entries.delete(entry.key);
  }
}
