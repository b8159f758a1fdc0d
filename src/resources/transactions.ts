import { OPERATIONS } from '../api/operations.js';
import { normaliseId } from '../api/recovery.js';
import type { TransactionLookupOptions } from '../bulk/lookup-types.js';
import { lookupMany } from '../bulk/lookups.js';
import { RequestValidationError, TimeoutError } from '../core/errors.js';
import { nextPollInterval, sleep } from '../core/retry.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import { isFinalStatus } from '../schemas/catalog.js';
import { caller } from './operation.js';

const lookup = caller(OPERATIONS['transactions.get']);

/** Options of {@link TransactionsResource.waitForFinalStatus}. */
export interface WaitOptions {
  /** Give up after this long; default 300,000 ms (5 minutes). */
  timeoutMs?: number;
  /** First pause between lookups; grows ×1.5 per poll up to 30 s. Default 2,000 ms. */
  intervalMs?: number;
  /** Stops waiting; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Transaction lookup: `client.transactions`. */
export class TransactionsResource {
  readonly #transport: Transport;
  /** @internal Built by PaymentClient; reach it as `client.<resource>`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Looks a PayIn or PayOut up by service ticket or merchant reference
   * (GET /api/v1/transaction/{id}). Always the one `Transaction` whose ticket or reference is the
   * id (surrounding blanks trimmed), whether the service sent an object or an array.
   * @throws NotFoundError when the service shows no transaction with that ticket or reference
   * @throws AmbiguousTransactionError when it shows several (their tickets are named)
   * @example
   * const tx = await client.transactions.get('order-1001'); // or the ticket
   * console.log(tx.status, tx.amount, tx.currency);
   */
  async get(ticketOrReference: string, options?: RequestOptions) {
    checkId(ticketOrReference);
    return this.#transport.request(lookup({ params: { ticket: normaliseId(ticketOrReference) } }), options);
  }

  /**
   * Looks many transactions up, at most `concurrency` (default 4) at a time, and resolves with one
   * result per id in input order — it never rejects for one id: `found` (with the transaction,
   * always the one asked for), `not_found`, or `failed` (with the typed error). For catching up
   * after missed webhooks (node_modules/payinout/docs/catch-up.md or https://github.com/payinout/payinout/blob/main/docs/catch-up.md).
   * The lookups share one pause, as `createMany`'s items do: a 429 on any of them pauses all for
   * the Retry-After the service asked (not counted against `maxRetries`); refused credentials or
   * a Retry-After over 60 s stop them, and ids not looked up fail with `LookupHaltedError`.
   * @example
   * const results = await client.transactions.getMany(pendingOrderIds, { concurrency: 8 });
   * for (const r of results) if (r.transaction && isFinalStatus(r.transaction.status)) await settle(r.transaction);
   */
  getMany(ids: readonly string[], options?: TransactionLookupOptions) {
    return lookupMany((id, o) => this.get(id, o), ids, options);
  }

  /**
   * Polls `get()` until the status is final (APPROVED, REJECTED, DECLINED or EXPIRED).
   * Throws TimeoutError after `timeoutMs`; an aborted `signal` rejects with its reason.
   * @example
   * const tx = await client.transactions.waitForFinalStatus(payin.ticket, { timeoutMs: 120_000 });
   * if (tx.status === 'APPROVED') await fulfil(tx.reference);
   */
  async waitForFinalStatus(ticketOrReference: string, options: WaitOptions = {}) {
    checkId(ticketOrReference);
    const { timeoutMs = 300_000, signal } = options;
    const deadline = Date.now() + timeoutMs;
    let interval = options.intervalMs ?? 2_000;
    for (;;) {
      const transaction = await this.get(ticketOrReference, signal ? { signal } : {});
      if (isFinalStatus(transaction.status)) return transaction;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        throw new TimeoutError({
          method: 'GET',
          path: `/${lookup({ params: { ticket: normaliseId(ticketOrReference) } }).path}`,
          message: `Transaction ${ticketOrReference} is still ${transaction.status} after ${timeoutMs} ms. Wait for its webhook, or call waitForFinalStatus again with a larger timeoutMs.`,
        });
      }
      await sleep(Math.min(interval, remaining), signal);
      interval = nextPollInterval(interval);
    }
  }
}

/** A lone surrogate would make encodeURIComponent throw a plain URIError: refuse it typed instead. */
function checkId(id: unknown): void {
  if (
    typeof id === 'string' &&
    id.trim() !== '' &&
    !/[\uD800-\uDFFF]/.test(id.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''))
  )
    return;
  throw new RequestValidationError(
    'transaction lookup',
    [
      {
        path: 'ticketOrReference',
        message: 'must be a non-empty string: the service ticket or your reference',
      },
    ],
    false,
  );
}
