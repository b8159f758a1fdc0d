/**
 * POST /api/v1/sandbox/payin/confirm and /payout/confirm: the spec's transition table,
 * supported-status tables and error table ("Sandbox confirm", "States and transitions", "Errors").
 */
import {
  COUNTRIES,
  isFinalStatus,
  SANDBOX_CONFIRM_SUPPORT,
  SANDBOX_CONFIRM_UNSUPPORTED_PAYIN,
} from '../schemas/catalog.js';
import { safeParse } from '../schemas/kit.js';
import { SandboxConfirmParamsSchema } from '../schemas/sandbox.js';
import { bareNotFound, describeIssues, fail, invalid, ok } from './reply.js';
import { PAYOUT_REJECTION_MESSAGES, type SandboxState } from './state.js';
import type { Direction, SandboxMerchant, SandboxResponse, SandboxTransaction } from './types.js';

export function confirm(
  state: SandboxState,
  merchant: SandboxMerchant,
  direction: Direction,
  body: unknown,
): SandboxResponse {
  // Production: the endpoint is disabled, 404 NOT_FOUND, no status change (spec "Environments").
  if (state.environment === 'production') return bareNotFound();
  const parsed = safeParse(SandboxConfirmParamsSchema, body);
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  const { transaction_id: id, payment_method: method, status: requested } = parsed.data;

  // Unknown id and another merchant's transaction answer the same (spec "Authentication", rule 6).
  const transaction = state.find(merchant, id);
  if (!transaction) return bareNotFound();
  const kind = transaction.type === 'PAYIN' ? 'payin' : 'payout';
  if (kind !== direction) {
    const other = kind === 'payin' ? 'PayIn' : 'PayOut';
    return fail(
      422,
      'TYPE_MISMATCH',
      `Transaction ${id} is a ${other}; use POST /api/v1/sandbox/${kind}/confirm.`,
    );
  }
  if (method !== transaction.payment_method) {
    return invalid(
      `payment_method: the transaction was created with ${transaction.payment_method}, not ${method}.`,
    );
  }
  const unsupported = checkSupported(direction, transaction, requested);
  if (unsupported) return unsupported;

  // PayOut EXPIRED is "treated as rejected (REJECTED)".
  const target = direction === 'payout' && requested === 'EXPIRED' ? 'REJECTED' : requested;
  const data = { transaction_id: id, payment_method: method, status: target };
  if (isFinalStatus(transaction.status)) {
    if (transaction.status === target) return ok(data, `Transaction already ${target}; nothing changed.`);
    return fail(
      422,
      'ALREADY_FINAL',
      `Transaction ${id} is already ${transaction.status}; a final status cannot change to ${target}.`,
    );
  }
  if (direction === 'payout' && !state.isSubmitted(transaction)) {
    const waitMs = Math.max(0, (transaction.submittedAt ?? 0) - state.clock.now());
    return invalid(
      `PayOut ${id} has not been submitted to the bank yet and cannot be confirmed; try again in ${waitMs} ms.`,
    );
  }
  if (state.confirmFailures > 0) {
    state.confirmFailures--;
    return fail(500, 'CONFIRM_FAILED', 'The status update failed (injected fault); nothing changed.');
  }
  state.setStatus(transaction, target, message(transaction, requested));
  const note = target === requested ? '' : ` (${requested} is treated as ${target} for a PayOut)`;
  const webhookUrl = state.deliverer?.targetFor(transaction);
  const webhook = webhookUrl
    ? `webhook queued for ${webhookUrl}`
    : 'no webhook: the transaction has no ipn_url';
  return ok(data, `Transaction ${target}${note}; ${webhook}.`);
}

/**
 * Spec "Supported statuses": the statuses sandbox confirm can set on this transaction — its
 * (method, country) row of the PayIn or PayOut table — or undefined when the method is not
 * driven by sandbox confirm (CARD, PSE, NEQUI_PUSH, …). The API and the dashboard's buttons
 * both ask this function, so they cannot disagree.
 */
export function confirmableStatuses(
  direction: Direction,
  transaction: SandboxTransaction,
): readonly string[] | undefined {
  const method = transaction.payment_method;
  const table: Readonly<Record<string, readonly string[]>> = SANDBOX_CONFIRM_SUPPORT[direction];
  const info = COUNTRIES[transaction.country];
  const methods = direction === 'payin' ? info.payinMethods : info.payoutMethods;
  return methods?.includes(method) ? table[method] : undefined;
}

/** Why a method is not driven by sandbox confirm, or which statuses it supports. */
export function unsupportedReason(direction: Direction, transaction: SandboxTransaction): string {
  const method = transaction.payment_method;
  const supported = confirmableStatuses(direction, transaction);
  return (
    (direction === 'payin' ? SANDBOX_CONFIRM_UNSUPPORTED_PAYIN[method] : undefined) ??
    (supported
      ? `${method} supports ${supported.join(', ')} in sandbox confirm`
      : `${method} in ${transaction.country} is not driven by sandbox confirm`)
  );
}

function checkSupported(
  direction: Direction,
  transaction: SandboxTransaction,
  status: string,
): SandboxResponse | undefined {
  if (confirmableStatuses(direction, transaction)?.includes(status)) return undefined;
  const why = unsupportedReason(direction, transaction);
  const method = transaction.payment_method;
  return fail(422, 'STATUS_NOT_SUPPORTED', `Status ${status} is not supported for ${method}: ${why}.`);
}

function message(transaction: SandboxTransaction, requested: string): string | undefined {
  if (transaction.type !== 'PAYOUT') return undefined;
  if (requested === 'EXPIRED') return 'Transacción expirada: sin respuesta del banco';
  if (requested === 'REJECTED') return PAYOUT_REJECTION_MESSAGES[2];
  return undefined;
}
