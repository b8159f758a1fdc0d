/**
 * The hosted checkout behind payment_url. The customer's side of a PayIn is not in the spec;
 * the simulator offers a minimal page so Checkout methods (CARD, PSE, ALL_METHODS, …) can be
 * completed by a browser, a test (POST) or `sandbox.completePayment()`.
 */
import { isFinalStatus } from '../schemas/catalog.js';
import { fail, ok } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxResponse, SandboxTransaction } from './types.js';

/** Test cards: the result of a sandbox CARD payment is fixed by the card number (guide "POST /api/v1/sandbox/payin/confirm and POST /api/v1/sandbox/payout/confirm", "Prerequisites", item 5). */
export const SANDBOX_TEST_CARDS: Readonly<Record<string, { status: string; brand: string; type: string }>> = {
  '4111111111111111': { status: 'APPROVED', brand: 'VISA', type: 'CREDIT' },
  '5555555555554444': { status: 'APPROVED', brand: 'MASTERCARD', type: 'DEBIT' },
  '4000000000000002': { status: 'REJECTED', brand: 'VISA', type: 'CREDIT' },
  '4000000000009995': { status: 'DECLINED', brand: 'VISA', type: 'CREDIT' },
};

type Outcome = 'APPROVED' | 'REJECTED' | 'DECLINED' | 'EXPIRED';
const OUTCOMES: ReadonlySet<string> = new Set<Outcome>(['APPROVED', 'REJECTED', 'DECLINED', 'EXPIRED']);
const isOutcome = (status: string | undefined): status is Outcome =>
  status !== undefined && OUTCOMES.has(status);

export interface CompletePaymentInput {
  status?: string;
  card_number?: string;
}

/** Completes a pending PayIn the way its customer would. */
export function completePayment(
  state: SandboxState,
  transaction: SandboxTransaction | undefined,
  input: CompletePaymentInput,
): SandboxResponse {
  if (transaction?.type !== 'PAYIN') return fail(404, 'NOT_FOUND', 'No such PayIn.');
  if (isFinalStatus(transaction.status)) {
    return fail(422, 'ALREADY_FINAL', `The payment is already ${transaction.status}.`);
  }
  let status = input.status?.toUpperCase();
  if (transaction.payment_method === 'CARD' || input.card_number !== undefined) {
    const number = (input.card_number ?? '4111111111111111').replace(/\D/g, '');
    const card = SANDBOX_TEST_CARDS[number];
    if (!card) {
      return fail(
        422,
        'VALIDATION_ERROR',
        `card_number: use a test card (${Object.keys(SANDBOX_TEST_CARDS).join(', ')}).`,
      );
    }
    status = card.status;
    transaction.card = {
      bin: number.slice(0, 6),
      lastFourDigits: number.slice(-4),
      brand: card.brand,
      type: card.type,
      bank: 'SANDBOX BANK',
      country: transaction.country,
    };
  }
  if (!isOutcome(status)) {
    return fail(422, 'VALIDATION_ERROR', 'status: one of APPROVED, REJECTED, DECLINED, EXPIRED.');
  }
  state.setStatus(transaction, status);
  return ok({ ticket: transaction.ticket, status }, `Payment ${status}`);
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export function checkoutPage(transaction: SandboxTransaction | undefined): SandboxResponse {
  if (transaction?.type !== 'PAYIN') return fail(404, 'NOT_FOUND', 'No such PayIn.');
  const t = transaction;
  const buttons = ['APPROVED', 'REJECTED', 'EXPIRED']
    .map((s) => `<button name="status" value="${s}">${s}</button>`)
    .join(' ');
  const card =
    t.payment_method === 'CARD'
      ? `<p><label>Test card <input name="card_number" value="4111111111111111"></label></p>`
      : '';
  const html = `<!doctype html><meta charset="utf-8"><title>payinout sandbox checkout</title>
<h1>Sandbox checkout</h1>
<p>${escapeHtml(t.reference)}: ${t.amount} ${t.currency} by ${escapeHtml(t.payment_method)} — status <b>${t.status}</b></p>
<form method="post">${card}${isFinalStatus(t.status) ? '' : buttons}</form>`;
  return { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: html };
}
