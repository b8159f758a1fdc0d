import { sandboxConfirmSupport } from '../api/confirm-support.js';
import { StatusNotSupportedError } from '../api/errors.js';
import { OPERATIONS } from '../api/operations.js';
import { SandboxUnavailableError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import { SANDBOX_CONFIRM_STATUSES } from '../schemas/catalog.js';
import type { SandboxConfirmParams } from '../schemas/sandbox.js';
import { caller } from './operation.js';

type Direction = 'payin' | 'payout';

const confirm = {
  payin: caller(OPERATIONS['sandbox.confirmPayIn']),
  payout: caller(OPERATIONS['sandbox.confirmPayOut']),
};

/** Sandbox confirm (staging and UAT only): `client.sandbox`. */
export class SandboxResource {
  readonly #transport: Transport;
  readonly #production: boolean;
  readonly #validate: boolean;
  /** @internal Built by PaymentClient; reach it as `client.sandbox`. */
  constructor(transport: Transport, options: { production: boolean; validateRequests: boolean }) {
    this.#transport = transport;
    this.#production = options.production;
    this.#validate = options.validateRequests;
  }

  /**
   * Forces a pending PayIn to APPROVED, REJECTED or EXPIRED and triggers its webhook
   * (POST /api/v1/sandbox/payin/confirm). Same status again is a no-op success.
   * `transaction_id` is the ticket, or the method's own reference where the spec says so (the
   * Bre-B key for BREB/BREB_QR, the cash reference for EFECTY, the CLABE for SPEI).
   * @throws SandboxUnavailableError on a production client; RequestValidationError, before
   *   sending, for a status other than APPROVED, REJECTED or EXPIRED; StatusNotSupportedError,
   *   before sending, for a status the method does not support in the sandbox (node_modules/payinout/docs/testing.md or https://github.com/payinout/payinout/blob/main/docs/testing.md)
   * @example
   * await client.sandbox.confirmPayIn({ transaction_id: payin.ticket, payment_method: 'BREB', status: 'APPROVED' });
   */
  confirmPayIn(params: SandboxConfirmParams, options?: RequestOptions) {
    return this.#confirm('payin', params, options);
  }

  /**
   * Forces a PayOut waiting for the bank to a final status (POST /api/v1/sandbox/payout/confirm).
   * REJECTED and EXPIRED restore the reserved sandbox balance.
   * @example
   * await client.sandbox.confirmPayOut({ transaction_id: payout.ticket, payment_method: 'BANK_TRANSFER', status: 'APPROVED' });
   */
  confirmPayOut(params: SandboxConfirmParams, options?: RequestOptions) {
    return this.#confirm('payout', params, options);
  }

  // async: the client-side refusals below reject the returned promise like every other failure.
  async #confirm(direction: Direction, params: SandboxConfirmParams, options?: RequestOptions) {
    if (this.#production) {
      throw new SandboxUnavailableError(
        'Sandbox confirm exists only in staging and UAT; this client is configured for production, so nothing was sent. Use a staging client (environment: "staging").',
      );
    }
    if (this.#validate) checkSupported(direction, params);
    return this.#transport.request(confirm[direction]({ body: params }), options);
  }
}

/**
 * The guide's supported-status tables, checked before sending by the rule the simulator answers
 * with (src/api/confirm-support.ts). Methods no row names go to the service.
 */
function checkSupported(direction: Direction, params: SandboxConfirmParams): void {
  const method = params?.payment_method;
  // Wrong types and statuses no confirm takes (PENDING…) are the schema's to report
  // (RequestValidationError), not this check's.
  const status = params?.status;
  if (typeof method !== 'string' || !(SANDBOX_CONFIRM_STATUSES as readonly unknown[]).includes(status))
    return;
  const support = sandboxConfirmSupport({ direction, payment_method: method, status });
  if (support.verdict !== 'unsupported') return;
  // Raised before sending: no HTTP status, body or attempt is claimed (status undefined, attempts 0).
  throw new StatusNotSupportedError({
    status: undefined,
    errorCode: 'STATUS_NOT_SUPPORTED',
    body: undefined,
    method: OPERATIONS[direction === 'payin' ? 'sandbox.confirmPayIn' : 'sandbox.confirmPayOut'].method,
    path: OPERATIONS[direction === 'payin' ? 'sandbox.confirmPayIn' : 'sandbox.confirmPayOut'].template,
    attempts: 0,
    advice: `${support.reason}. Checked client-side: nothing was sent. See the supported-status table: ${guide('testing.md', 'sandbox-confirm-supported-statuses')}.`,
  });
}
