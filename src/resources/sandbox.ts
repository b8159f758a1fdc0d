import { SandboxUnavailableError, StatusNotSupportedError } from '../core/errors.js';
import type { RequestOptions, Transport } from '../core/transport.js';
import {
  SANDBOX_CONFIRM_STATUSES,
  SANDBOX_CONFIRM_SUPPORT,
  SANDBOX_CONFIRM_UNSUPPORTED_PAYIN,
} from '../schemas/catalog.js';
import {
  type SandboxConfirmParams,
  SandboxConfirmParamsSchema,
  SandboxConfirmResultSchema,
} from '../schemas/sandbox.js';

type Direction = 'payin' | 'payout';

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
   * @throws SandboxUnavailableError on a production client; StatusNotSupportedError, before
   *   sending, for a status the method does not support in the sandbox (docs/testing.md)
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
    const path = `api/v1/sandbox/${direction}/confirm`;
    const request = { schema: SandboxConfirmParamsSchema, what: `sandbox ${direction} confirm` };
    // Idempotent by the spec (same status again answers 200), so it may be retried.
    return this.#transport.request(
      { method: 'POST', path, body: params, request, response: SandboxConfirmResultSchema, resend: 'safe' },
      options,
    );
  }
}

/** The spec's supported-status tables, checked before sending. Unlisted methods go to the service. */
function checkSupported(direction: Direction, params: SandboxConfirmParams): void {
  const method = params?.payment_method;
  // Wrong types and statuses no confirm takes (PENDING…) are the schema's to report
  // (RequestValidationError), not this check's.
  if (typeof method !== 'string' || !(SANDBOX_CONFIRM_STATUSES as readonly unknown[]).includes(params.status))
    return;
  const table: Record<string, readonly string[]> = SANDBOX_CONFIRM_SUPPORT[direction];
  const supported = table[method];
  const unsupported = direction === 'payin' ? SANDBOX_CONFIRM_UNSUPPORTED_PAYIN[method] : undefined;
  if (supported?.includes(params.status) !== false && !unsupported) return;
  const why = unsupported
    ? `${method} cannot be driven by sandbox confirm: ${unsupported}`
    : `${method} ${direction === 'payin' ? 'PayIn' : 'PayOut'} supports ${supported?.join(', ')} in sandbox confirm, not ${params.status}`;
  // Raised before sending: no HTTP status, body or attempt is claimed (status undefined, attempts 0).
  throw new StatusNotSupportedError({
    status: undefined,
    errorCode: 'STATUS_NOT_SUPPORTED',
    body: undefined,
    method: 'POST',
    path: `/api/v1/sandbox/${direction}/confirm`,
    attempts: 0,
    advice: `${why}. Checked client-side: nothing was sent. See the supported-status table in docs/testing.md.`,
  });
}
