import { type ConfirmChecks, checkedConfirm } from '../api/confirm-check.js';
import { OPERATIONS } from '../api/operations.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import type { SandboxConfirmParams } from '../schemas/sandbox.js';
import { caller } from './operation.js';

const confirm = {
  payin: caller(OPERATIONS['sandbox.confirmPayIn']),
  payout: caller(OPERATIONS['sandbox.confirmPayOut']),
};

/** Sandbox confirm (staging and UAT only): `client.sandbox`. */
export class SandboxResource {
  readonly #transport: Transport;
  readonly #checks: ConfirmChecks;
  /** @internal Built by PaymentClient; reach it as `client.sandbox`. */
  constructor(transport: Transport, options: { production: boolean; validateRequests: boolean }) {
    this.#transport = transport;
    this.#checks = { production: options.production, validateRequests: options.validateRequests };
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

  // async: the client-side refusals (api/confirm-check.ts) reject the returned promise like every other failure.
  async #confirm(direction: 'payin' | 'payout', params: SandboxConfirmParams, options?: RequestOptions) {
    return this.#transport.request(
      confirm[direction](options, checkedConfirm(direction, params, this.#checks)),
    );
  }
}
