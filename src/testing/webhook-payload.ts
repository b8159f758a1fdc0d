/** What the simulator POSTs to a transaction's ipn_url: the top_* event of its current state. */
import type { WebhookEventInput } from '../schemas/webhook.js';
import { publicCustomer } from './records.js';
import type { SandboxTransaction } from './types.js';

/** The top_* payload (spec "Events", payload fields; inner names of top_user/top_card as in schemas/webhook.ts). */
export function buildPayload(transaction: SandboxTransaction): WebhookEventInput {
  const payload: WebhookEventInput = {
    top_status: transaction.status,
    top_ticket: transaction.ticket,
    top_reference: transaction.reference,
    top_amount: transaction.amount,
    top_currency: transaction.currency,
    top_payment_method: transaction.payment_method,
    top_bank_name: bankName(transaction),
    top_response_message: transaction.responseMessage,
    top_user: publicCustomer(transaction.customer),
  };
  if (transaction.card) payload.top_card = transaction.card;
  return payload;
}

function bankName(transaction: SandboxTransaction): string | null {
  if (transaction.type === 'PAYOUT') return transaction.customer.bank ?? null;
  const info = transaction.paymentInformation;
  if (info && typeof info.bank_name === 'string') return info.bank_name;
  if (info && typeof info.bank === 'string') return info.bank;
  return transaction.card?.bank ?? null;
}
