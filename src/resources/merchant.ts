import { OPERATIONS } from '../api/operations.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import { caller } from './operation.js';

const getProfile = caller(OPERATIONS['merchant.getProfile']);
const getBalance = caller(OPERATIONS['merchant.getBalance']);

/** The authenticated merchant: `client.merchant`. */
export class MerchantResource {
  readonly #transport: Transport;
  /** @internal Built by PaymentClient; reach it as `client.<resource>`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Registered name, tax ID, e-mail, currency and wallet (GET /api/v1/merchant/me).
   * @example
   * const profile = await client.merchant.getProfile();
   */
  getProfile(options?: RequestOptions) {
    return this.#transport.request(getProfile(options));
  }

  /**
   * Current balance, raw and formatted (GET /api/v1/merchant/balance).
   * @example
   * const { balance, balance_formatted } = await client.merchant.getBalance(); // 'COP 1.234.567,89'
   */
  getBalance(options?: RequestOptions) {
    return this.#transport.request(getBalance(options));
  }
}
