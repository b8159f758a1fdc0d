/**
 * The fencing rule of a lease, written once for the two payinout keeps: a webhook event's dedupe
 * claim (`webhooks/lease.ts`, over the user's DedupeStore) and a queue job's references
 * (`bullmq/lease.ts`, over the queue's Redis scripts). The store does the atomic half, each over
 * its own operations; this file is the holder's half, decided on the holder's own clock.
 *
 * The contract every lease store keeps:
 * - take: a new fencing token at every take of a key that is free or whose lease ran out, else
 *   "held by another" (`null`): a holder whose lease ran out and was taken again is fenced out;
 * - renew and release (and the dedupe's completion) act only while the stored token is the
 *   caller's: a stale token changes nothing and says so (false), it never frees another's claim;
 * - expiry is judged by the store's own clock (Redis PX or TIME, the memory store's timer): no
 *   host's clock is written into the store, and no two hosts' clocks are compared.
 *
 * The holder, in turn, counts its lease from when each take or renewal was SENT (an answer can
 * arrive late, never early) and acts irreversibly only while {@link holdsAt} says the lease is
 * still certainly its own.
 */

/** What a take answers for one key: this holder's fencing token, or null while another's lease runs. */
export type Taken = string | null;

/** How a holder counts its lease on its own clock. */
export interface LeaseTerms {
  /** The lease's time to live, as the store applies it at every take and renewal. */
  readonly ttlMs: number;
  /** The share of `ttlMs` the holder trusts: below 1 when the store's clock may run ahead of its own. */
  readonly trustedShare: number;
}

/** How many renewals a held lease gets per time to live: two may fail before it runs out. */
const RENEWALS_PER_TTL = 3;

/** The holder's `until` once the store refused a renewal: the lease is no longer certainly its own. */
export const LAPSED = 0;

/** The interval between renewals of a lease of `ttlMs`, never below `minMs` (a timer must not spin). */
export function renewalBeatMs(ttlMs: number, minMs: number): number {
  return Math.max(minMs, Math.floor(ttlMs / RENEWALS_PER_TTL));
}

/** Until when (holder's clock) a take or renewal sent at `sentAt` and granted keeps the lease the holder's. */
export function trustedUntil(terms: LeaseTerms, sentAt: number): number {
  return sentAt + terms.ttlMs * terms.trustedShare;
}

/**
 * The holder's `until` after a renewal sent at `sentAt`: extended when the store renewed it (never
 * shortened by an answer that arrives after a later one), LAPSED when the store showed another
 * token or none.
 */
export function untilAfterRenewal(
  terms: LeaseTerms,
  until: number,
  sentAt: number,
  renewed: boolean,
): number {
  return renewed ? Math.max(until, trustedUntil(terms, sentAt)) : LAPSED;
}

/** The fence: whether a holder whose lease runs until `until` may still act at `now` (same clock). */
export function holdsAt(until: number, now: number): boolean {
  return now < until;
}
