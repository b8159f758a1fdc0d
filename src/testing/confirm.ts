/**
 * POST /api/v1/sandbox/payin/confirm and /payout/confirm: the guide's transition table, its
 * supported-status tables (the shared rule in src/api/confirm-support.ts) and its error table
 * (guide "POST /api/v1/sandbox/payin/confirm and POST /api/v1/sandbox/payout/confirm",
 * "States and transitions", "Errors").
 */
import {
  type ConfirmDirection,
  sandboxConfirmSupport,
  confirmableStatuses as statusesOf,
} from '../api/confirm-support.js';
import { OPERATIONS } from '../api/operations.js';
import { isFinalStatus } from '../schemas/catalog.js';
import { safeParse } from '../schemas/kit.js';
import type { SandboxConfirmParams } from '../schemas/sandbox.js';
import { bareNotFound, describeIssues, fail, invalid, ok } from './reply.js';
import { PAYOUT_REJECTION_MESSAGES, type SandboxState } from './state.js';
import type { SandboxMerchant, SandboxResponse, SandboxTransaction } from './types.js';

type Confirm = Required<SandboxConfirmParams>;

export function confirm(
  state: SandboxState,
  merchant: SandboxMerchant,
  direction: ConfirmDirection,
  body: unknown,
): SandboxResponse {
  // Production: the endpoint is disabled, 404 NOT_FOUND, no status change (guide "What the service does", "Environments").
  if (state.environment === 'production') return bareNotFound();
  const parsed = safeParse(OPERATIONS['sandbox.confirmPayIn'].request.schema, body);
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  const params = parsed.data;
  // Unknown id and another merchant's transaction answer the same (guide "Authentication", rule 6).
  const transaction = state.find(merchant, params.transaction_id);
  if (!transaction) return bareNotFound();
  const refused = checkConfirmable(direction, transaction, params);
  if (refused) return refused;

  // PayOut EXPIRED is "treated as rejected (REJECTED)".
  const target = direction === 'payout' && params.status === 'EXPIRED' ? 'REJECTED' : params.status;
  const data = {
    transaction_id: params.transaction_id,
    payment_method: params.payment_method,
    status: target,
  };
  if (isFinalStatus(transaction.status))
    return alreadyFinal(transaction, params.transaction_id, target, data);
  const blocked = checkTiming(state, direction, transaction, params.transaction_id);
  if (blocked) return blocked;
  state.setStatus(transaction, target, message(transaction, params.status));
  const note = target === params.status ? '' : ` (${params.status} is treated as ${target} for a PayOut)`;
  const webhookUrl = state.deliverer?.targetFor(transaction);
  const webhook = webhookUrl
    ? `webhook queued for ${webhookUrl}`
    : 'no webhook: the transaction has no ipn_url';
  return ok(data, `Transaction ${target}${note}; ${webhook}.`);
}

/** The right endpoint, the method it was created with, and a status the guide's tables allow. */
function checkConfirmable(
  direction: ConfirmDirection,
  transaction: SandboxTransaction,
  params: Confirm,
): SandboxResponse | undefined {
  const kind = transaction.type === 'PAYIN' ? 'payin' : 'payout';
  if (kind !== direction) {
    const other = kind === 'payin' ? 'PayIn' : 'PayOut';
    const where = `/${OPERATIONS[kind === 'payin' ? 'sandbox.confirmPayIn' : 'sandbox.confirmPayOut'].template.slice(1)}`;
    return fail(
      422,
      'TYPE_MISMATCH',
      `Transaction ${params.transaction_id} is a ${other}; use POST ${where}.`,
    );
  }
  const method = params.payment_method;
  if (method !== transaction.payment_method) {
    return invalid(
      `payment_method: the transaction was created with ${transaction.payment_method}, not ${method}.`,
    );
  }
  // The same rule the client checks before sending; 'unlisted' is refused here, as the service
  // playing it: the guide's tables name every method sandbox confirm drives.
  const support = sandboxConfirmSupport({
    direction,
    payment_method: method,
    status: params.status,
    country: transaction.country,
  });
  if (support.verdict === 'supported') return undefined;
  return fail(
    422,
    'STATUS_NOT_SUPPORTED',
    `Status ${params.status} is not supported for ${method}: ${support.reason}.`,
  );
}

/**
 * The statuses sandbox confirm can set on this transaction (its row of the guide's tables), or
 * undefined when its method is not driven by sandbox confirm. The confirm endpoint, the client's
 * check and the dashboard's buttons all read the same rule (src/api/confirm-support.ts).
 */
export function confirmableStatuses(
  direction: ConfirmDirection,
  transaction: SandboxTransaction,
): readonly string[] | undefined {
  return statusesOf({ direction, payment_method: transaction.payment_method, country: transaction.country });
}

/** Why a status is refused for this transaction's method: what its row allows, or why it has none. */
export function unsupportedReason(direction: ConfirmDirection, transaction: SandboxTransaction): string {
  const statuses = confirmableStatuses(direction, transaction);
  if (statuses) return `${transaction.payment_method} supports ${statuses.join(', ')} in sandbox confirm`;
  const { payment_method, country } = transaction;
  const support = sandboxConfirmSupport({ direction, payment_method, country, status: '' });
  return support.verdict === 'supported' ? '' : support.reason;
}

/** Guide "States and transitions": the same final status again is a no-op; another is ALREADY_FINAL. */
function alreadyFinal(
  transaction: SandboxTransaction,
  id: string,
  target: string,
  data: Record<string, string>,
): SandboxResponse {
  if (transaction.status === target) return ok(data, `Transaction already ${target}; nothing changed.`);
  return fail(
    422,
    'ALREADY_FINAL',
    `Transaction ${id} is already ${transaction.status}; a final status cannot change to ${target}.`,
  );
}

/** A PayOut not yet at the bank cannot be confirmed; injected faults answer CONFIRM_FAILED. */
function checkTiming(
  state: SandboxState,
  direction: ConfirmDirection,
  transaction: SandboxTransaction,
  id: string,
): SandboxResponse | undefined {
  if (direction === 'payout' && !state.isSubmitted(transaction)) {
    const waitMs = Math.max(0, (transaction.submittedAt ?? 0) - state.clock.now());
    return invalid(
      `PayOut ${id} has not been submitted to the bank yet and cannot be confirmed; try again in ${waitMs} ms.`,
    );
  }
  if (state.confirmFailures <= 0) return undefined;
  state.confirmFailures--;
  return fail(500, 'CONFIRM_FAILED', 'The status update failed (injected fault); nothing changed.');
}

function message(transaction: SandboxTransaction, requested: string): string | undefined {
  if (transaction.type !== 'PAYOUT') return undefined;
  if (requested === 'EXPIRED') return 'Transacción expirada: sin respuesta del banco';
  if (requested === 'REJECTED') return PAYOUT_REJECTION_MESSAGES[2];
  return undefined;
}
