import { OPERATIONS } from '../api/operations.js';
import { checkedLookupId } from '../api/recovery.js';
import type { TransactionLookupOptions } from '../bulk/lookup-types.js';
import { lookupMany } from '../bulk/lookups.js';
import { type WaitOptions, waitForFinal } from '../bulk/wait.js';
import type { NotFound } from '../core/call.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import type { CallOptions } from '../core/types.js';
import type { Transaction } from '../schemas/transaction.js';
import { caller } from './operation.js';

export type { WaitOptions };

const lookup = caller(OPERATIONS['transactions.get']);

/**
 * @internal The lookup a batch makes before each create (bulk/types.ts `BatchClient.lookup`):
 * `transactions.get`, except that a miss — the answer every new item gets — resolves with
 * NOT_FOUND instead of throwing a NotFoundError (core/call.ts): the same request, retries, pause
 * and halt, without an error built, scrubbed and thrown per new item.
 */
export function lookupFirst(transport: Transport) {
  return (reference: string, options?: CallOptions): Promise<Transaction | NotFound> => {
    const call = lookup(options, undefined, { ticket: checkedLookupId(reference) });
    call.notFoundIsAnswer = true;
    return transport.request(call) as Promise<Transaction | NotFound>;
  };
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
    return this.#transport.request(
      lookup(options, undefined, { ticket: checkedLookupId(ticketOrReference) }),
    );
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
  async waitForFinalStatus(ticketOrReference: string, options?: WaitOptions) {
    return waitForFinal((id, o) => this.get(id, o), ticketOrReference, options);
  }
}
