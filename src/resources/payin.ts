import type { RequestOptions, Transport } from '../core/transport.js';
import {
  PayInCreatedSchema,
  type PayInCreateParams,
  PayInCreateParamsSchema,
  type PayInLegacyCreateParams,
  PayInLegacyCreateParamsSchema,
  PseBankListSchema,
} from '../schemas/payin.js';

/** PayIn collections: `client.payin`. */
export class PayInResource {
  readonly #transport: Transport;
  constructor(transport: Transport) {
    this.#transport = transport;
  }

  /**
   * Creates a PayIn (POST /api/v2/payin). The answer holds `payment_url` (Checkout/Hybrid),
   * `payment_information` (Direct/Hybrid), or both. If the answer is lost (reset, timeout, 5xx), the
   * reference is looked up before any resend; a result rebuilt that way has `recovered: true` and no
   * `payment_url`/`payment_information` (docs/reliability.md).
   * @example
   * const payin = await client.payin.create({ reference: 'order-1001', amount: 50000, currency: 'COP',
   *   country: 'CO', payment_method: 'BREB', description: 'Order 1001', customer_data });
   */
  create(params: PayInCreateParams, options?: RequestOptions) {
    const request = { schema: PayInCreateParamsSchema, what: 'PayIn' };
    const retry = { kind: 'reconcile', reference: params?.reference } as const;
    return this.#transport.request(
      { method: 'POST', path: 'api/v2/payin', body: params, request, response: PayInCreatedSchema, retry },
      options,
    );
  }

  /**
   * Creates a PayIn with the legacy endpoint (POST /api/v1/payin).
   * @deprecated The service recommends v2: use `client.payin.create()` (docs/migration-legacy-payin.md).
   */
  createLegacy(params: PayInLegacyCreateParams, options?: RequestOptions) {
    const request = { schema: PayInLegacyCreateParamsSchema, what: 'legacy PayIn' };
    const retry = { kind: 'reconcile', reference: params?.reference } as const;
    return this.#transport.request(
      { method: 'POST', path: 'api/v1/payin', body: params, request, response: PayInCreatedSchema, retry },
      options,
    );
  }

  /** Bank codes for `customer_data.bank` of a PSE direct PayIn (GET /api/v1/pse/banks). */
  listPseBanks(options?: RequestOptions) {
    return this.#transport.request(
      { method: 'GET', path: 'api/v1/pse/banks', response: PseBankListSchema, retry: 'safe' },
      options,
    );
  }
}
