import { OPERATIONS } from '../api/operations.js';
import type { RequestOptions, Transport, WithResponse } from '../core/transport.js';
import type { PayOutCreated, PayOutCreateParams } from '../schemas/payout.js';
import type { Recoverable } from '../schemas/recovery.js';
import { caller } from './operation.js';

const create = caller(OPERATIONS['payout.create']);

/** PayOut disbursements: `client.payout`. */
export class PayOutResource {
  readonly #transport: Transport;
  /** @internal Built by PaymentClient; reach it as `client.<resource>`. */
  constructor(transport: Transport) {
    this.#transport = transport;
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
  create(
    params: PayOutCreateParams,
    options?: RequestOptions,
  ): Promise<WithResponse<Recoverable<PayOutCreated>>> {
    return this.#transport.request(create({ body: params }), options);
  }
}
