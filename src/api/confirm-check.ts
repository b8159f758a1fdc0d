/**
 * The client's checks of a sandbox confirm, before anything is sent: a production client has no
 * sandbox, and a status the method does not support in the sandbox is refused by the same rule
 * the simulator answers with (confirm-support.ts). Methods no row names go to the service.
 */
import { SandboxUnavailableError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import { SANDBOX_CONFIRM_STATUSES } from '../schemas/catalog.js';
import type { SandboxConfirmParams } from '../schemas/sandbox.js';
import { type ConfirmDirection, sandboxConfirmSupport } from './confirm-support.js';
import { StatusNotSupportedError } from './errors.js';
import { OPERATIONS } from './operations.js';

/** What the client was built with that decides its confirm checks. */
export interface ConfirmChecks {
  production: boolean;
  /** The client's `validateRequests`: off, the service decides what a method supports. */
  validateRequests: boolean;
}

/** `params`, once the client's checks pass; a typed refusal otherwise (nothing sent). */
export function checkedConfirm(
  direction: ConfirmDirection,
  params: SandboxConfirmParams,
  checks: ConfirmChecks,
): SandboxConfirmParams {
  if (checks.production) {
    throw new SandboxUnavailableError(
      'Sandbox confirm exists only in staging and UAT; this client is configured for production, so nothing was sent. Use a staging client (environment: "staging").',
    );
  }
  if (checks.validateRequests) checkSupported(direction, params);
  return params;
}

/** The guide's supported-status tables, checked before sending. */
function checkSupported(direction: ConfirmDirection, params: SandboxConfirmParams): void {
  const method = params?.payment_method;
  // Wrong types and statuses no confirm takes (PENDING…) are the schema's to report
  // (RequestValidationError), not this check's.
  const status = params?.status;
  if (typeof method !== 'string' || !(SANDBOX_CONFIRM_STATUSES as readonly unknown[]).includes(status))
    return;
  const support = sandboxConfirmSupport({ direction, payment_method: method, status });
  if (support.verdict !== 'unsupported') return;
  const operation = OPERATIONS[direction === 'payin' ? 'sandbox.confirmPayIn' : 'sandbox.confirmPayOut'];
  // Raised before sending: no HTTP status, body or attempt is claimed (status undefined, attempts 0).
  throw new StatusNotSupportedError({
    status: undefined,
    errorCode: 'STATUS_NOT_SUPPORTED',
    body: undefined,
    method: operation.method,
    path: operation.template,
    attempts: 0,
    advice: `${support.reason}. Checked client-side: nothing was sent. See the supported-status table: ${guide('testing.md', 'sandbox-confirm-supported-statuses')}.`,
  });
}
