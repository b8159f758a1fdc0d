/**
 * Where payinout/bullmq keeps its own state, beside BullMQ's keys for the queue
 * (`{prefix}:{queue}:payinout:…`), and how a job id is derived from a batch and a reference.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from 'bullmq';

/** What BullMQ's Queue and Worker both offer: `toKey('x')` is `{prefix}:{queue}:x`. */
export interface KeyOwner {
  toKey(type: string): string;
}

/** Batch ids name Redis keys and job ids: letters, digits, `.`, `_`, `-`. */
export const BATCH_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** A new batch id: when it was made, and enough randomness that two never meet. */
export function newBatchId(): string {
  return `${new Date()
    .toISOString()
    .slice(0, 19)
    .replace(/[^0-9T]/g, '')}-${randomUUID().slice(0, 8)}`;
}

/** The keys of one batch. */
export function batchKeys(owner: KeyOwner, batchId: string) {
  const base = owner.toKey(`payinout:batch:${batchId}`);
  return {
    /** LIST of job ids, in input order. */
    order: `${base}:order`,
    /** HASH job id → index: whether a job was enqueued already. */
    index: `${base}:index`,
    /** HASH job id → result JSON; the first settled result of a job wins. */
    results: `${base}:results`,
    /** HASH outcome → count, kept with `results`. */
    counts: `${base}:counts`,
    /** STRING: the batch-wide failure that stopped the batch. */
    halt: `${base}:halt`,
  };
}

/** The queue-wide keys: the shared rate-limit pause and the per-reference leases. */
export function queueKeys(owner: KeyOwner) {
  return {
    /** STRING whose time to live (Redis's clock) is the pause: no worker sends a request before it ends. */
    pause: owner.toKey('payinout:pause'),
    /**
     * HASH reference → `<until>|<token>` of the worker settling it (chunk-scripts.ts): one key for
     * every lease of the queue, so a chunk takes and releases all of its leases in one command each.
     */
    leases: owner.toKey('payinout:leases'),
  };
}

/** Every key a job's scripts name: its batch's and its queue's. */
export function jobKeys(owner: KeyOwner, batchId: string) {
  return { ...batchKeys(owner, batchId), ...queueKeys(owner) };
}

export type JobKeys = ReturnType<typeof jobKeys>;

/**
 * One job per batch and reference: enqueueing the same items again adds nothing twice. BullMQ
 * refuses `:` in a custom id; encodeURIComponent escapes it, and `|` never occurs in its output.
 */
export function jobIdOf(batchId: string, reference: string): string {
  return `payout|${batchId}|${encodeURIComponent(reference)}`;
}

/** A Queue or Worker of BullMQ 5 (`.client`) or 6 (`.getBackend().client`). */
interface ClientOwner {
  client?: Promise<unknown>;
  getBackend?: () => { client?: Promise<unknown> };
}

/** The Redis connection BullMQ already opened for `owner`: payinout opens none of its own. */
export function redisOf(owner: object): Promise<RedisClient> {
  const o = owner as ClientOwner;
  const client = typeof o.getBackend === 'function' ? o.getBackend().client : o.client;
  if (!client) throw new TypeError('payinout/bullmq needs a Redis-backed BullMQ Queue or Worker');
  return client as Promise<RedisClient>;
}
