import { OPERATIONS } from '../api/operations.js';
import { createPayOutBatch } from '../bulk/batch.js';
import {
  BATCH_CLIENT,
  type BatchClient,
  type PayOutBatchOptions,
  type PayOutBatchResult,
} from '../bulk/types.js';
import type { Dispatcher } from '../core/dispatch.js';
import type { ManyEvents } from '../core/observer-events.js';
import type { RequestOptions, Transport, WithResponse } from '../core/transport.js';
import type { CheckedPayOutParams } from '../schemas/params-check.js';
import type { PayOutCreated, PayOutCreateParams } from '../schemas/payout.js';
import type { Recoverable } from '../schemas/recovery.js';
import { caller } from './operation.js';
import { lookupFirst } from './transactions.js';

const create = caller(OPERATIONS['payout.create']);

/** PayOut disbursements: `client.payout`. */
export class PayOutResource {
  readonly #transport: Transport;
  readonly #observers: Dispatcher<ManyEvents> | undefined;
  /** @internal Built by PaymentClient; reach it as `client.<resource>`. */
  constructor(transport: Transport, observers?: Dispatcher<ManyEvents>) {
    this.#transport = transport;
    this.#observers = observers;
  }

  /**
   * Creates a PayOut (POST /api/v1/payout); its initial status is PENDING.
   * In the sandbox, fund the balance first with an approved PayIn. Never sent twice for one
   * reference without a lookup between: a lost answer is reconciled by reference (`recovered: true`).
   * @example
   * const payout = await client.payout.create({ reference: 'refund-1001', amount: 40_000, currency: 'COP',
   *   country: 'CO', payment_method: 'BANK_TRANSFER', ipn_url: 'https://shop.example/webhooks/payinout',
   *   customer_data: { ...customer_data, bank: 'BANCOLOMBIA', account_number: '1234567890', account_type: 'AHORRO' } });
   */
  create<const C, const Currency, const Method, const Customer>(
    params: CheckedPayOutParams<C, Currency, Method, Customer>,
    options?: RequestOptions,
  ): Promise<WithResponse<Recoverable<PayOutCreated>>> {
    // CheckedPayOutParams is PayOutCreateParams or one country's member of it for any argument that
    // compiles (its other branches are sentences, which no params value is).
    return this.#transport.request(create(options, params as PayOutCreateParams));
  }

  /**
   * Creates many PayOuts, at most `concurrency` (default 4) at a time, and resolves with one
   * result per item in input order — it never rejects for one item. Each item is validated like
   * `create`, its reference looked up first: an existing one with the same amount, currency and
   * destination is `recovered` (nothing sent), one with other details `failed` with a
   * `ReferenceConflictError` naming the field. Re-running a batch is therefore safe. A rate limit
   * pauses the whole batch; an aborted `signal` starts no new item (node_modules/payinout/docs/bulk-payouts.md or https://github.com/payinout/payinout/blob/main/docs/bulk-payouts.md).
   *
   * Retries: each call of an item retries transient failures (no answer, 5xx, 408) up to
   * `maxRetries` times — the client's `maxRetries` unless the batch sets its own — and a create is
   * resent only after one lookup of its reference shows nothing, never blindly. The first 429
   * pauses every worker at once for the time the service asked, and is not counted.
   * A batch-wide failure (refused credentials, a Retry-After over 60 s) stops the batch: items
   * not started fail with `BatchHaltedError`, nothing sent for them.
   * @example
   * const results = await client.payout.createMany(payouts, { onProgress: (p) => console.log(p.done, p.total) });
   * for (const r of results) if (r.outcome === 'failed') console.error(r.reference, r.error?.message);
   */
  createMany(
    items: readonly PayOutCreateParams[],
    options?: PayOutBatchOptions,
  ): Promise<PayOutBatchResult[]> {
    return createPayOutBatch(this[BATCH_CLIENT](), items, options);
  }

  /**
   * @internal What a batch settles its items with: this client's create and lookup, its
   * `maxRetries` and its observers (createMany, and the workers of payinout/bullmq).
   */
  [BATCH_CLIENT](): BatchClient {
    return {
      create: this.create.bind(this),
      lookup: lookupFirst(this.#transport),
      maxRetries: this.#transport.maxRetries,
      observers: this.#observers,
    };
  }
}
