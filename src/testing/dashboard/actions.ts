/**
 * The dashboard's two buttons. Confirm goes through the very function behind
 * POST /api/v1/sandbox/{payin|payout}/confirm, as the transaction's merchant, so the page can
 * do nothing the API would refuse (supported statuses, final statuses, production).
 */
import { confirm } from '../confirm.js';
import { fail, invalid, ok } from '../reply.js';
import type { SandboxInternals } from '../sandbox.js';
import type { SandboxResponse, SandboxTransaction } from '../types.js';

export function confirmFromDashboard(
  internals: SandboxInternals,
  transaction: SandboxTransaction,
  rawBody: string,
): SandboxResponse {
  let status: unknown;
  try {
    status = (JSON.parse(rawBody) as { status?: unknown } | null)?.status;
  } catch {
    return invalid('The request body is not valid JSON.');
  }
  const { state } = internals;
  const direction = transaction.type === 'PAYIN' ? 'payin' : 'payout';
  return confirm(state, state.merchantOf(transaction), direction, {
    transaction_id: transaction.ticket,
    payment_method: transaction.payment_method,
    status,
  });
}

export function resendFromDashboard(
  internals: SandboxInternals,
  transaction: SandboxTransaction,
): SandboxResponse {
  const delivery = internals.deliverer.resend(transaction.ticket);
  if (!delivery) {
    return fail(
      409,
      'NO_WEBHOOK',
      'This transaction has had no webhook yet (no ipn_url and no --forward-webhooks).',
    );
  }
  return ok(
    { delivery: delivery.id, url: delivery.url },
    `Webhook ${delivery.status} queued again for ${delivery.url}.`,
  );
}
