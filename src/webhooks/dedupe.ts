/**
 * Exactly-once processing of webhook deliveries (spec "Events", rules 4–5: the service
 * retries until it gets a 200, and receivers are expected to deduplicate).
 *
 * Key = ticket + status: one transaction legitimately sends PENDING and then APPROVED, and
 * the second must not be dropped. A claim is a short lease ('in-flight'); `complete` turns it
 * into a 'done' mark kept for `ttlMs`; `release` gives it back so the service's retry is processed.
 */
import { randomUUID } from 'node:crypto';
import { ConfigurationError } from '../core/errors.js';
import { FINAL_STATUSES } from '../schemas/catalog.js';

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
}

/**
 * What {@link WebhookDeduplicator.claim} answers: 'new' (process it, then `complete` or `release`),
 * 'duplicate' (already processed: answer 200 and do nothing), 'in-flight' (another caller holds it
 * right now: answer 409 so the service retries later).
 */
export type ClaimResult = 'new' | 'duplicate' | 'in-flight';

/** The fields of an event that identify it for dedupe. */
export interface DedupeEvent {
  top_ticket: string;
  top_status: string;
}

/** Options of {@link WebhookDeduplicator}. */
export interface WebhookDeduplicatorOptions {
  /** Default: a MemoryDedupeStore (one process). Use RedisDedupeStore when several processes receive. */
  store?: DedupeStore;
  /** How long a processed event stays 'duplicate'. Default 7 days, longer than the whole retry schedule (~3h45). */
  ttlMs?: number;
  /**
   * How long a claim holds while onEvent runs. Default 60 s: if the process dies mid-handler,
   * the lease expires well before the service's first retry (5 minutes later).
   */
  inFlightTtlMs?: number;
}

/** How long a processed event is remembered by default: 7 days, far beyond the service's ~3h45 retry schedule. */
export const DEFAULT_DEDUPE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const DEFAULT_IN_FLIGHT_TTL_MS = 60_000;
const DONE = 'done';
const LEASE_PREFIX = 'in-flight:';

/**
 * Exactly-once processing of webhook deliveries, keyed on ticket + status (PENDING then APPROVED
 * are two events; the same APPROVED twice is one). `createWebhookHandler` uses one by default;
 * use it directly when you verify deliveries yourself. Share a {@link DedupeStore} such as
 * `RedisDedupeStore` (`payinout/redis`) when several processes receive webhooks.
 * @example
 * const dedupe = new WebhookDeduplicator(); // in memory, one process
 * const event = verifyWebhook(rawBody, headers, { token });
 * const claim = await dedupe.claim(event);
 * if (claim === 'new') {
 *   try {
 *     await fulfilOrder(event.top_reference, event.top_status);
 *     await dedupe.complete(event); // later deliveries of this event are 'duplicate'
 *   } catch (error) {
 *     await dedupe.release(event); // the service's retry will be processed
 *     throw error;
 *   }
 * }
 */
export class WebhookDeduplicator {
  readonly store: DedupeStore;
  readonly ttlMs: number;
  readonly inFlightTtlMs: number;
  /** Lease values this instance holds, so `release` frees only its own claim. */
  readonly #leases = new Map<string, string>();

  constructor(options: WebhookDeduplicatorOptions = {}) {
    this.store = options.store ?? new MemoryDedupeStore();
    this.ttlMs = positive(options.ttlMs, DEFAULT_DEDUPE_TTL_MS, 'ttlMs');
    this.inFlightTtlMs = positive(options.inFlightTtlMs, DEFAULT_IN_FLIGHT_TTL_MS, 'inFlightTtlMs');
  }

  /** The store key of an event: ticket and status, each encoded so neither can forge the other. */
  static key(event: DedupeEvent): string {
    return `${encodeURIComponent(event.top_ticket)}:${encodeURIComponent(event.top_status)}`;
  }

  /** 'new': this caller must process it, then complete() or release(). Atomic across callers sharing the store. */
  async claim(event: DedupeEvent): Promise<ClaimResult> {
    const key = WebhookDeduplicator.key(event);
    const lease = LEASE_PREFIX + randomUUID();
    // A lease can expire between the failed SET NX and the GET; then claim again.
    for (let attempt = 0; attempt < 3; attempt++) {
      if (await this.store.setIfAbsent(key, lease, this.inFlightTtlMs)) {
        this.#leases.set(key, lease);
        return 'new';
      }
      const current = await this.store.get(key);
      if (current === DONE) return 'duplicate';
      if (current !== null) return 'in-flight';
    }
    return 'in-flight';
  }

  /** Marks the event processed for `ttlMs`; later deliveries of it are 'duplicate'. */
  async complete(event: DedupeEvent): Promise<void> {
    const key = WebhookDeduplicator.key(event);
    this.#leases.delete(key);
    await this.store.set(key, DONE, this.ttlMs);
  }

  /** Gives back a claim after a failed handler so the service's retry is processed. */
  async release(event: DedupeEvent): Promise<void> {
    const key = WebhookDeduplicator.key(event);
    const lease = this.#leases.get(key);
    this.#leases.delete(key);
    if (lease !== undefined) await this.store.deleteIfEquals(key, lease);
  }
}

const RANK: Record<string, number> = { CREATED: 0, PENDING: 1 };
for (const status of FINAL_STATUSES) RANK[status] = 3;
/** Unknown statuses sit between the in-progress and the final ones (see docs/webhooks.md). */
const UNKNOWN_RANK = 2;

/**
 * True when a transaction whose stored status is `prev` should move to `next`.
 * Final statuses (APPROVED, REJECTED, DECLINED, EXPIRED) are never overwritten, not even by
 * another final one (spec "States and transitions": a final status is unchanged); PENDING
 * beats CREATED. Deliveries arrive out of order (retries), so a late PENDING must lose.
 */
export function isNewerStatus(prev: string | null | undefined, next: string): boolean {
  if (prev === null || prev === undefined || prev === '') return true;
  if (prev === next) return false;
  const rank = (status: string) => (Object.hasOwn(RANK, status) ? RANK[status]! : UNKNOWN_RANK);
  return rank(next) > rank(prev);
}

/** Options of {@link MemoryDedupeStore}. */
export interface MemoryDedupeStoreOptions {
  /** Bound on the number of keys; least recently used are evicted first. Default 100,000. */
  maxKeys?: number;
  /** Clock, for tests. Default Date.now. */
  now?: () => number;
}

/** One process only: an LRU map with per-key expiry. Operations are synchronous, hence atomic. */
export class MemoryDedupeStore implements DedupeStore {
  readonly maxKeys: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(options: MemoryDedupeStoreOptions = {}) {
    this.maxKeys = positive(options.maxKeys, 100_000, 'maxKeys');
    this.#now = options.now ?? Date.now;
  }

  /** Number of keys held, expired ones not yet swept included. */
  get size(): number {
    return this.#entries.size;
  }

  async setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean> {
    if (this.#read(key) !== null) return false;
    this.#write(key, value, ttlMs);
    return true;
  }

  /** The value of `key`, or null when absent or expired. */
  async get(key: string): Promise<string | null> {
    return this.#read(key);
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#write(key, value, ttlMs);
  }

  async deleteIfEquals(key: string, value: string): Promise<void> {
    if (this.#read(key) === value) this.#entries.delete(key);
  }

  #read(key: string): string | null {
    const entry = this.#entries.get(key);
    if (!entry) return null;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return null;
    this.#entries.set(key, entry); // most recently used goes last
    return entry.value;
  }

  #write(key: string, value: string, ttlMs: number): void {
    this.#entries.delete(key);
    this.#entries.set(key, { value, expiresAt: this.#now() + ttlMs });
    while (this.#entries.size > this.maxKeys) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(
      `${name} must be a positive number of ${name === 'maxKeys' ? 'keys' : 'milliseconds'}; got ${value}.`,
    );
  }
  return value;
}
