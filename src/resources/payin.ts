import { OPERATIONS } from '../api/operations.js';
import type { RequestOptions, Transport, WithResponse } from '../core/transport.js';
import type { CheckedPayInParams } from '../schemas/params-check.js';
import type { PayInCreateParams, PayInLegacyCreateParams } from '../schemas/payin.js';
import type { PayInCreated } from '../schemas/payin-result.js';
import type { Recoverable } from '../schemas/recovery.js';
import { caller } from './operation.js';

const create = caller(OPERATIONS['payin.create']);
const createLegacy = caller(OPERATIONS['payin.createLegacy']);
const listPseBanks = caller(OPERATIONS['payin.listPseBanks']);

/** PayIn collections: `client.payin`. */
export class PayInResource {
  readonly #transport: Transport;
  /** @internal Built by PaymentClient; reach it as `client.<resource>`. */
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Creates a PayIn (POST /api/v2/payin). The answer holds `payment_url` (Checkout/Hybrid),
   * `payment_information` (Direct/Hybrid), or both. If the answer is lost (reset, timeout, 5xx), the
   * reference is looked up before any resend; a result rebuilt that way has `recovered: true` and no
   * `payment_url`/`payment_information` (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md).
   * @throws RequestValidationError before sending when the params break the spec's rules
   * @example
   * const payin = await client.payin.create({ reference: 'order-1001', amount: 50000, currency: 'COP',
   *   country: 'CO', payment_method: 'BREB', description: 'Order 1001', customer_data,
   *   ipn_url: 'https://shop.example/webhooks/payinout' });
   * console.log(payin.ticket, payin.payment_url ?? payin.payment_information);
   */
  create<const C, const Currency, const Method, const Customer>(
    params: CheckedPayInParams<C, Currency, Method, Customer>,
    options?: RequestOptions,
  ): Promise<WithResponse<Recoverable<PayInCreated>>> {
    // CheckedPayInParams is PayInCreateParams or one country's member of it for any argument that
    // compiles (its other branches are sentences, which no params value is).
    return this.#transport.request(create(options, params as PayInCreateParams));
  }

  /**
   * Creates a PayIn with the legacy endpoint (POST /api/v1/payin).
   * v1 rules: integer `amount`, CO/PE only, `redirect_url` and `ipn_url` required, `description` optional.
   * @deprecated The service recommends v2: use `client.payin.create()` (node_modules/payinout/docs/migration-legacy-payin.md or https://github.com/payinout/payinout/blob/main/docs/migration-legacy-payin.md).
   * @example
   * const payin = await client.payin.createLegacy({ reference: 'order-1001', amount: 150000, currency: 'COP',
   *   country: 'CO', payment_method: 'PSE', redirect_url: 'https://shop.example/orders/1001',
   *   ipn_url: 'https://shop.example/webhooks/payinout', customer_data });
   */
  createLegacy(
    params: PayInLegacyCreateParams,
    options?: RequestOptions,
  ): Promise<WithResponse<Recoverable<PayInCreated>>> {
    return this.#transport.request(createLegacy(options, params));
  }

  /**
   * Bank codes for `customer_data.bank` of a PSE direct PayIn (GET /api/v1/pse/banks).
   * @example
   * const banks = await client.payin.listPseBanks(); // [{ code: '1077', name: 'Banka' }, …]
   */
  listPseBanks(options?: RequestOptions) {
    return this.#transport.request(listPseBanks(options));
  }
}
