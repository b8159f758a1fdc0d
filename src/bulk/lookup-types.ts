/** The public shapes of many lookups (the public API contract, "Catching up after missed webhooks"). */
import type { PayinoutError } from '../core/errors.js';
import type { Transaction } from '../schemas/transaction.js';

/**
 * What one lookup of `client.transactions.getMany()` (or one row of `payinout transactions
 * check`) showed:
 * - `found`: `transaction` is the one whose ticket or reference is `id`;
 * - `not_found`: the service shows no transaction with that ticket or reference (`error` is the
 *   `NotFoundError`);
 * - `failed`: the lookup did not say either way (network, 5xx, refused credentials, an invalid
 *   id, an aborted batch): `error` says why; look it up again later.
 */
export interface TransactionLookupResult {
  /** The ticket or reference as given. */
  id: string;
  outcome: 'found' | 'not_found' | 'failed';
  /** The transaction, for `found`. */
  transaction?: Transaction;
  /** Why it was not found or failed; absent for `found`. */
  error?: PayinoutError;
}

/** Counts passed to `onProgress` after every settled lookup. */
export interface TransactionLookupProgress {
  /** Lookups settled so far (found + notFound + failed). */
  done: number;
  total: number;
  found: number;
  notFound: number;
  failed: number;
}

/** Options of `client.transactions.getMany()`. */
export interface TransactionLookupOptions {
  /** How many lookups are in flight at once; default 4, at most 64 (as `payout.createMany`). */
  concurrency?: number;
  /**
   * Stops the lookups: none starts after it aborts and those in flight are cancelled; each of
   * them is `failed` with a `LookupAbortedError`. Results already settled are kept.
   */
  signal?: AbortSignal;
  /** Called after every settled lookup, in completion order. An exception it throws is ignored. */
  onProgress?: (progress: TransactionLookupProgress) => void;
}
