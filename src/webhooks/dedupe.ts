/**
 * Exactly-once processing of webhook deliveries (spec "Events", rules 4–5: the service
 * retries until it gets a 200, and receivers are expected to deduplicate).
 *
 * Key = ticket + status: one transaction legitimately sends PENDING and then APPROVED, and
 * the second must not be dropped. A claim is a lease ('in-flight') whose value is a fencing
 * token; it is renewed while onEvent runs, `complete` turns it into a 'done' mark kept for
 * `ttlMs` only while the token still owns it; `release` gives it back so the service's retry
 * is processed. Every store call has a deadline (`storeTimeoutMs`).
 */

import { ANY, type OptionTable, positive, TIMER_MS } from '../core/options.js';
import type { Logger } from '../core/transport.js';
import { FINAL_STATUSES } from '../schemas/catalog.js';
import { randomId } from './crypto.js';
import { GuardedStore } from './guarded-store.js';
import { DedupeLease, DONE, type LeaseContext } from './lease.js';
import { MemoryDedupeStore } from './memory-store.js';
import { checkWebhookOptions } from './options.js';
import type { DedupeStore } from './store.js';

export { DedupeLease } from './lease.js';
export { MemoryDedupeStore, type MemoryDedupeStoreOptions } from './memory-store.js';
export type { DedupeStore } from './store.js';

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
   * How long a claim lasts without renewal; while onEvent runs (`lease.hold`, which
   * createWebhookHandler uses) it is renewed every third of this. Default 60 s: if the process
   * dies mid-handler, the lease expires well before the service's first retry (5 minutes later).
   */
  inFlightTtlMs?: number;
  /**
   * Deadline of every store call, default 3,000 ms. A store that is down or hung past it makes
   * the handler answer 503 (the service retries) instead of hanging the request.
   */
  storeTimeoutMs?: number;
  /** Told (error) when a lease is lost or outlived while onEvent runs, and (warn) by the default MemoryDedupeStore. Default console. */
  logger?: Pick<Logger, 'error' | 'warn'>;
}

/** How long a processed event is remembered by default: 7 days, far beyond the service's ~3h45 retry schedule. */
export const DEFAULT_DEDUPE_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** How long a claim lasts without renewal by default: 60 s, well before the service's first retry (5 minutes later). */
export const DEFAULT_IN_FLIGHT_TTL_MS = 60_000;
/** Default deadline of one dedupe-store call. */
export const DEFAULT_STORE_TIMEOUT_MS = 3_000;
const LEASE_PREFIX = 'in-flight:';

/** A processed event's TTL lives in the store (no timer holds it); the other two are timers. */
const DEDUPLICATOR_OPTIONS: OptionTable<WebhookDeduplicatorOptions> = {
  store: ANY,
  ttlMs: positive('milliseconds'),
  inFlightTtlMs: TIMER_MS,
  storeTimeoutMs: TIMER_MS,
  logger: ANY,
};

/** What {@link WebhookDeduplicator.acquire} answers: the claim result and, when 'new', the lease to hold. */
export interface Acquired {
  result: ClaimResult;
  /** Present when `result` is 'new': hold it while processing, then complete or release it. */
  lease?: DedupeLease;
}

/**
 * Exactly-once processing of webhook deliveries, keyed on ticket + status (PENDING then APPROVED
 * are two events; the same APPROVED twice is one). `createWebhookHandler` uses one by default;
 * use it directly when you verify deliveries yourself. Share a {@link DedupeStore} such as
 * `RedisDedupeStore` (`payinout/redis`) when several processes receive webhooks.
 * @example
 * const dedupe = new WebhookDeduplicator(); // in memory, one process
 * const event = verifyWebhook(rawBody, headers, { token });
 * const { result, lease } = await dedupe.acquire(event); // result: 'new' | 'duplicate' | 'in-flight'
 * if (lease) {
 *   try {
 *     await lease.hold(() => fulfilOrder(event.top_reference, event.top_status)); // renewed while it runs
 *     await lease.complete(); // later deliveries of this event are 'duplicate'
 *   } catch (error) {
 *     await lease.release(); // the service's retry will be processed
 *     throw error;
 *   }
 * }
 */
export class WebhookDeduplicator {
  readonly store: DedupeStore;
  readonly ttlMs: number;
  readonly inFlightTtlMs: number;
  readonly storeTimeoutMs: number;
  readonly #lease: LeaseContext;
  /** Leases taken through `claim`, so `complete`/`release` by event act for this instance's claim. */
  readonly #leases = new Map<string, DedupeLease>();

  constructor(options: WebhookDeduplicatorOptions = {}) {
    checkWebhookOptions('new WebhookDeduplicator()', options, DEDUPLICATOR_OPTIONS);
    const logger = options.logger ?? console;
    this.store = options.store ?? new MemoryDedupeStore({ logger });
    this.ttlMs = options.ttlMs ?? DEFAULT_DEDUPE_TTL_MS;
    this.inFlightTtlMs = options.inFlightTtlMs ?? DEFAULT_IN_FLIGHT_TTL_MS;
    this.storeTimeoutMs = options.storeTimeoutMs ?? DEFAULT_STORE_TIMEOUT_MS;
    const store = new GuardedStore(this.store, this.storeTimeoutMs);
    this.#lease = { store, ttlMs: this.ttlMs, inFlightTtlMs: this.inFlightTtlMs, logger };
  }

  /** The store key of an event: ticket and status, each encoded so neither can forge the other. */
  static key(event: DedupeEvent): string {
    return dedupeKey(event);
  }

  /**
   * Claims an event and hands back its lease: the form for concurrent callers (what
   * createWebhookHandler uses), since each lease carries its own fencing token.
   * @example
   * const { result, lease } = await dedupe.acquire(event);
   * if (lease) {
   *   try { await lease.hold(() => fulfil(event)); await lease.complete(); }
   *   catch (error) { await lease.release(); throw error; }
   * }
   */
  async acquire(event: DedupeEvent): Promise<Acquired> {
    const key = dedupeKey(event);
    const token = LEASE_PREFIX + randomId();
    const { store } = this.#lease;
    // A lease can expire between the failed SET NX and the GET; then claim again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const claimedAt = Date.now();
      if (await store.setIfAbsent(key, token, this.inFlightTtlMs)) {
        return { result: 'new', lease: new DedupeLease(this.#lease, key, token, claimedAt) };
      }
      const current = await store.get(key);
      if (current === DONE) return { result: 'duplicate' };
      if (current !== null) return { result: 'in-flight' };
    }
    return { result: 'in-flight' };
  }

  /**
   * 'new': this caller must process it, then complete() or release(). Atomic across callers
   * sharing the store. The lease is not renewed: for work that may outlast `inFlightTtlMs`,
   * use {@link acquire} and `lease.hold`.
   */
  async claim(event: DedupeEvent): Promise<ClaimResult> {
    const { result, lease } = await this.acquire(event);
    if (lease) this.#leases.set(lease.key, lease);
    return result;
  }

  /**
   * Marks the event processed for `ttlMs`; later deliveries of it are 'duplicate'. After
   * `claim`, only while this instance's lease still owns the key: false (and an error logged)
   * when another caller took it over.
   */
  async complete(event: DedupeEvent): Promise<boolean> {
    const key = dedupeKey(event);
    const lease = this.#leases.get(key);
    this.#leases.delete(key);
    if (lease) return lease.complete();
    await this.#lease.store.set(key, DONE, this.ttlMs);
    return true;
  }

  /** Gives back a claim after a failed handler so the service's retry is processed. */
  async release(event: DedupeEvent): Promise<void> {
    const key = dedupeKey(event);
    const lease = this.#leases.get(key);
    this.#leases.delete(key);
    await lease?.release();
  }
}

const RANK: Record<string, number> = { CREATED: 0, PENDING: 1 };
for (const status of FINAL_STATUSES) RANK[status] = 3;
/** Unknown statuses sit between the in-progress and the final ones (see node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md). */
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

/**
 * The store key of an event (WebhookDeduplicator.key), apart from the class: a class body that
 * names its own class gets that class renamed in the build (scripts/check-package.mjs).
 */
function dedupeKey(event: DedupeEvent): string {
  return `${encodeURIComponent(event.top_ticket)}:${encodeURIComponent(event.top_status)}`;
}
