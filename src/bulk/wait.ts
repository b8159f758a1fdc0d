/**
 * `client.transactions.waitForFinalStatus()`: one transaction looked up again and again, at a
 * growing interval, until its status is final — the lookups composed here, over the client's
 * one-call `transactions.get`, so that src/resources/ stays one line per method.
 */
import { OPERATIONS } from '../api/operations.js';
import { buildPath } from '../api/paths.js';
import { normaliseId } from '../api/recovery.js';
import { TimeoutError } from '../core/errors.js';
import { nextPollInterval, sleep } from '../core/retry.js';
import { isFinalStatus } from '../schemas/catalog.js';
import type { Transaction } from '../schemas/transaction.js';

/** Options of `client.transactions.waitForFinalStatus()`. */
export interface WaitOptions {
  /** Give up after this long; default 300,000 ms (5 minutes). */
  timeoutMs?: number;
  /** First pause between lookups; grows ×1.5 per poll up to 30 s. Default 2,000 ms. */
  intervalMs?: number;
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** One lookup, as `client.transactions.get` makes it. */
export type GetOne = (id: string, options: { signal?: AbortSignal }) => Promise<Transaction>;

/** Polls `get(id)` until the status is final; a TimeoutError after `timeoutMs`. */
export async function waitForFinal(get: GetOne, id: string, options: WaitOptions = {}): Promise<Transaction> {
  const { timeoutMs = 300_000, signal } = options;
  const deadline = Date.now() + timeoutMs;
  let interval = options.intervalMs ?? 2_000;
  for (;;) {
    const transaction = await get(id, signal ? { signal } : {});
    if (isFinalStatus(transaction.status)) return transaction;
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      throw new TimeoutError({
        method: 'GET',
        path: `/${buildPath(OPERATIONS['transactions.get'], { ticket: normaliseId(id) })}`,
        message: `Transaction ${id} is still ${transaction.status} after ${timeoutMs} ms. Wait for its webhook, or call waitForFinalStatus again with a larger timeoutMs.`,
      });
    }
    await sleep(Math.min(interval, remaining), signal);
    interval = nextPollInterval(interval);
  }
}
