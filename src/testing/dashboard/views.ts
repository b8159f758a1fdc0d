/**
 * The JSON the dashboard page renders: merchants with their balances and newest transactions,
 * and one transaction with its status history, webhook deliveries and the actions it allows.
 * Amounts are formatted here, with the formatter behind balance_formatted, so the page shows
 * money exactly as the API does.
 */
import { isFinalStatus } from '../../schemas/catalog.js';
import { payInMode } from '../catalog.js';
import { confirmableStatuses, unsupportedReason } from '../confirm.js';
import type { WebhookDelivery } from '../delivery.js';
import { formatBalance } from '../merchants.js';
import type { SandboxInternals } from '../sandbox.js';
import type { SandboxMerchant, SandboxTransaction } from '../types.js';
import { type ListQuery, listTransactions, STATUS_CHOICES } from './list.js';

/**
 * The overview: each merchant's balance and transaction count, one page of the transactions
 * (of every merchant shown) the query matches, and how many `maxTransactions` dropped.
 */
export function overview(
  internals: SandboxInternals,
  merchants: readonly SandboxMerchant[],
  query: ListQuery,
) {
  const { state } = internals;
  // Counts each shown merchant's transactions during the list's one pass over the store.
  const counts = new Map<string, number>(merchants.map((m) => [m.username, 0]));
  const inScope = (t: SandboxTransaction) => {
    const count = counts.get(t.merchant);
    if (count === undefined) return false;
    counts.set(t.merchant, count + 1);
    return true;
  };
  const list = listTransactions(state.transactions.values(), inScope, query);
  return {
    environment: state.environment,
    now: state.clock.now(),
    merchants: merchants.map((merchant) => ({
      username: merchant.username,
      name: merchant.name,
      country: merchant.country,
      currency: merchant.currency,
      balance_formatted: formatBalance(merchant.currency, merchant.balance),
      total: counts.get(merchant.username) ?? 0,
    })),
    statuses: STATUS_CHOICES,
    transactions: {
      ...list,
      rows: list.rows.map((t) => ({
        ...row(t),
        merchant: t.merchant,
        confirm_statuses: confirmOffer(internals, t).statuses,
      })),
    },
    retention: { max: state.retention.max ?? null, dropped: state.retention.dropped },
  };
}

function row(transaction: SandboxTransaction) {
  return {
    ticket: transaction.ticket,
    reference: transaction.reference,
    type: transaction.type,
    payment_method: transaction.payment_method,
    amount_formatted: formatBalance(transaction.currency, transaction.amount),
    status: transaction.status,
    created_at: transaction.createdAt,
  };
}

export function detail(internals: SandboxInternals, transaction: SandboxTransaction) {
  const { state, deliverer } = internals;
  const merchant = state.merchantOf(transaction);
  const deliveries = deliverer.deliveriesOf(transaction.ticket);
  return {
    ...row(transaction),
    environment: state.environment,
    now: state.clock.now(),
    merchant: { username: merchant.username, name: merchant.name },
    balance_formatted: formatBalance(merchant.currency, merchant.balance),
    response_message: transaction.responseMessage,
    description: transaction.description ?? null,
    ipn_url: transaction.ipn_url ?? null,
    checkout_url: checkoutPath(transaction),
    history: state.feed.history(transaction.ticket),
    deliveries: numbered(deliveries),
    confirm: confirmOffer(internals, transaction),
    can_resend: deliveries.length > 0,
  };
}

/** The hosted checkout behind payment_url, as a same-origin path; null where the API gives no payment_url. */
function checkoutPath(transaction: SandboxTransaction): string | null {
  if (transaction.type !== 'PAYIN') return null;
  const pseDirect = transaction.payment_method === 'PSE' && transaction.customer.bank !== undefined;
  if (payInMode(transaction.payment_method, pseDirect) === 'direct') return null;
  return `/checkout/${encodeURIComponent(transaction.ticket)}`;
}

/** The buttons the supported-status table allows now, or why there are none. */
function confirmOffer(internals: SandboxInternals, transaction: SandboxTransaction) {
  const { state } = internals;
  const direction = transaction.type === 'PAYIN' ? 'payin' : 'payout';
  const none = (note: string) => ({ statuses: [] as readonly string[], note });
  if (state.environment === 'production') return none('Sandbox confirm is disabled in production.');
  if (isFinalStatus(transaction.status)) return none(`${transaction.status} is final: nothing to confirm.`);
  const statuses = confirmableStatuses(direction, transaction);
  if (!statuses) return none(`Not driven by sandbox confirm: ${unsupportedReason(direction, transaction)}.`);
  if (direction === 'payout' && !state.isSubmitted(transaction)) {
    return none('Not submitted to the bank yet; confirm becomes possible once it is.');
  }
  const note =
    direction === 'payout' && statuses.includes('EXPIRED') ? 'A PayOut EXPIRED is recorded as REJECTED.' : '';
  return { statuses, note };
}

/** Newest first, numbered 1, 2, … within this transaction (the sandbox-wide ids mean nothing here). */
function numbered(deliveries: readonly WebhookDelivery[]) {
  const numbers = new Map(deliveries.map((d, i) => [d.id, i + 1]));
  return deliveries.map((d) => delivery(d, numbers)).reverse();
}

function delivery(d: WebhookDelivery, numbers: ReadonlyMap<number, number>) {
  return {
    id: numbers.get(d.id)!,
    event_status: d.status,
    state: d.state,
    resend_of: d.resendOf === undefined ? null : (numbers.get(d.resendOf) ?? null),
    next_attempt_at: d.nextAttemptAt ?? null,
    attempts: d.attempts.map((a) => ({
      at: a.at,
      url: a.url,
      status: a.status ?? null,
      answer: a.answer ?? null,
      error: a.error ?? null,
      next_attempt_at: a.nextAttemptAt ?? null,
    })),
    target: d.url,
  };
}
