/** The public shapes of a PayOut batch (the public API contract, "Bulk payouts"). */
import type { NotFound } from '../core/call.js';
import type { Dispatcher } from '../core/dispatch.js';
import type { PayinoutError } from '../core/errors.js';
import type { ManyEvents } from '../core/observer-events.js';
import type { CallOptions } from '../core/types.js';
import type { PayOutCreated, PayOutCreateParams } from '../schemas/payout.js';
import type { RecoveryFields } from '../schemas/recovery.js';
import type { Transaction } from '../schemas/transaction.js';

/**
 * What happened to one item of `client.payout.createMany()` (or one row of `payinout payouts send`):
 * - `created`: this run sent the PayOut and the service holds it (`ticket` is its ticket);
 * - `recovered`: the reference already existed with the same amount, currency and destination —
 *   an earlier run, or another host, sent it — so nothing was sent;
 * - `failed`: see `error` (a {@link PayinoutError}). A `ConnectionError` with `outcome: 'unknown'`
 *   means the PayOut may exist: run the batch again, which looks it up and never sends it twice.
 */
export interface PayOutBatchResult {
  /** The item's merchant reference ('' when the item had none). */
  reference: string;
  outcome: 'created' | 'recovered' | 'failed';
  /** The service ticket, for `created` and `recovered`. */
  ticket?: string;
  /** The transaction status: the looked-up status when known, PENDING for a fresh create. */
  status?: Transaction['status'];
  /** Why the item failed; only for `failed`. */
  error?: PayinoutError;
}

/** Counts passed to `onProgress` after every settled item. */
export interface PayOutBatchProgress {
  /** Items settled so far (created + recovered + failed). */
  done: number;
  total: number;
  created: number;
  recovered: number;
  failed: number;
}

/** Options of `client.payout.createMany()`. */
export interface PayOutBatchOptions {
  /** How many items are in flight at once; default 4, at most 64. */
  concurrency?: number;
  /**
   * Stops the batch: no new item starts, and items in flight are settled (their current request
   * finishes; one that may have reached the service is looked up). Items not started are `failed`
   * with a `BatchAbortedError`: nothing was sent for them. The batch also stops itself on a
   * batch-wide failure such as refused credentials: items not started then fail with a
   * `BatchHaltedError` (a `BatchAbortedError`) naming it.
   */
  signal?: AbortSignal;
  /** Called after every settled item, in completion order. An exception it throws is ignored. */
  onProgress?: (progress: PayOutBatchProgress) => void;
  /**
   * Transient failures (no answer, 5xx, 408) each call of an item repeats after, as every call of
   * the client does; a create is resent only after a lookup of its reference shows nothing, so a
   * retry never sends a PayOut twice. Default: the client's `maxRetries` (2 unless configured); 0
   * settles every item on its first answer. Rate limits do not count: the first 429 pauses the
   * whole batch at once, for the Retry-After the service asked (up to 30 pauses per call).
   */
  maxRetries?: number;
}

/**
 * The key of `client.payout`'s internal method that gives a batch its {@link BatchClient}: how
 * `createMany` and payinout/bullmq's worker reach the client's observers. `Symbol.for`, so a client
 * loaded as CommonJS and a worker loaded as ESM (two copies of this module) still meet.
 */
export const BATCH_CLIENT: unique symbol = Symbol.for('payinout.batchClient');

/** The two public client methods a batch is built on, and the client's retry budget. */
export interface BatchClient {
  /** The client's `maxRetries`: an item's budget unless the batch sets its own. */
  maxRetries: number;
  /**
   * The client's observers (its tracer), told of the batch and of each item or job through the
   * guarded dispatcher (node_modules/payinout/docs/observability.md or https://github.com/payinout/payinout/blob/main/docs/observability.md).
   */
  observers?: Dispatcher<ManyEvents> | undefined;
  create(
    params: PayOutCreateParams,
    options?: CallOptions,
  ): Promise<PayOutCreated & RecoveryFields & { ticket: string }>;
  /**
   * Looks the reference up before its create: the transaction, or NOT_FOUND (core/call.ts) when
   * the service shows none. A lookup that throws `transactions.get`'s NotFoundError instead
   * means the same (api/find.ts reads both as absent).
   */
  lookup(reference: string, options?: CallOptions): Promise<Transaction | NotFound>;
}
