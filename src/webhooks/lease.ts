/**
 * A claim on one event, held by one caller: its fencing token (the lease value) proves
 * ownership to the store. While onEvent runs, `hold` renews the lease every third of its
 * time-to-live, so a slow handler keeps its claim; `complete` marks the event done only while
 * the token is still the one stored. A lost or outlived lease is logged at error level, because
 * then another receiver may be running the same event. The fencing rule (core/lease.ts) is the
 * queue's too; here the store is the user's DedupeStore and the clock this process's Date.now().
 */
import { holdsAt, type LeaseTerms, renewalBeatMs, trustedUntil, untilAfterRenewal } from '../core/lease.js';
import type { Logger } from '../core/transport.js';
import type { GuardedStore } from './guarded-store.js';

/** The mark of a processed event. */
export const DONE = 'done';

/** What a lease needs from its deduplicator. */
export interface LeaseContext {
  store: GuardedStore;
  ttlMs: number;
  inFlightTtlMs: number;
  logger: Pick<Logger, 'error' | 'warn'>;
}

/** Ownership of one claimed event: renew it, complete it or release it. */
export class DedupeLease {
  /** The store key (ticket + status). */
  readonly key: string;
  /** The fencing token: the value stored under `key` while this lease owns it. */
  readonly token: string;
  readonly #context: LeaseContext;
  /** The store's in-flight TTL, trusted whole: the store's key outlives what this clock counts. */
  readonly #terms: LeaseTerms;
  #expiresAt: number;
  #lost = false;
  #outlivedLogged = false;

  /** @internal Built by WebhookDeduplicator.acquire. */
  constructor(context: LeaseContext, key: string, token: string, claimedAt: number) {
    this.#context = context;
    this.key = key;
    this.token = token;
    this.#terms = { ttlMs: context.inFlightTtlMs, trustedShare: 1 };
    this.#expiresAt = trustedUntil(this.#terms, claimedAt);
  }

  /** True once the store showed another owner (or none) under this key while the lease was held. */
  get lost(): boolean {
    return this.#lost;
  }

  /** Extends the lease by `inFlightTtlMs`; false when the key no longer holds this token. */
  async renew(): Promise<boolean> {
    const started = Date.now();
    const { store, inFlightTtlMs } = this.#context;
    const renewed = await store.replaceIfEquals(this.key, this.token, this.token, inFlightTtlMs);
    this.#expiresAt = untilAfterRenewal(this.#terms, this.#expiresAt, started, renewed);
    if (!renewed) this.#markLost('renewing');
    return renewed;
  }

  /**
   * Marks the event processed, fenced by this lease's token. False when another caller owns the
   * key now (its lease is left alone, and this is logged); a key whose lease simply expired
   * with no new owner is still marked done.
   */
  async complete(): Promise<boolean> {
    const { store, ttlMs } = this.#context;
    if (await store.replaceIfEquals(this.key, this.token, DONE, ttlMs)) return true;
    if (await store.setIfAbsent(this.key, DONE, ttlMs)) return true;
    if ((await store.get(this.key)) === DONE) return true; // another receiver finished it too
    this.#markLost('completing');
    return false;
  }

  /** Gives the claim back (after a failed handler) so the service's retry is processed; only this token. */
  async release(): Promise<void> {
    await this.#context.store.deleteIfEquals(this.key, this.token);
  }

  /**
   * Runs `work` while renewing the lease every third of `inFlightTtlMs`. A failed renewal is
   * retried at the next beat; once the lease's expiry has passed without one, or the store shows
   * another owner, an error is logged (the work is not interrupted: it may already have effects).
   */
  async hold<T>(work: () => T | Promise<T>): Promise<T> {
    const beat = renewalBeatMs(this.#context.inFlightTtlMs, 5);
    let pending: Promise<void> | undefined;
    const timer = setInterval(() => {
      pending ??= this.#beat().finally(() => {
        pending = undefined;
      });
    }, beat);
    try {
      return await work();
    } finally {
      clearInterval(timer);
      await pending;
    }
  }

  async #beat(): Promise<void> {
    if (this.#lost) return;
    try {
      await this.renew();
    } catch {
      // Store unavailable: try again at the next beat; the expiry check below speaks up.
    }
    if (!this.#lost && !this.#outlivedLogged && !holdsAt(this.#expiresAt, Date.now())) {
      this.#outlivedLogged = true;
      this.#context.logger.error(
        `Webhook handler for ${this.key} outlived its dedupe lease (${this.#context.inFlightTtlMs} ms; the store did not renew it): another receiver may run this event too. Check the dedupe store.`,
        { key: this.key, inFlightTtlMs: this.#context.inFlightTtlMs },
      );
    }
  }

  #markLost(while_: 'renewing' | 'completing'): void {
    if (this.#lost) return;
    this.#lost = true;
    this.#context.logger.error(
      `Webhook dedupe lease for ${this.key} was lost while ${while_}: another receiver claimed the event, so it may run twice. Check that the store does not evict keys.`,
      { key: this.key },
    );
  }
}
