/** POST /api/v2/payin and the deprecated POST /api/v1/payin (spec "Endpoints"). */

import { safeParse } from '../schemas/kit.js';
import { PayInCreateParamsSchema, PayInLegacyCreateParamsSchema } from '../schemas/payin.js';
import {
  newCus,
  type PaymentInformation,
  payInMode,
  paymentInformation,
  SANDBOX_PSE_APPROVED_EMAIL,
  SANDBOX_PSE_BANK,
  SANDBOX_PSE_BANKS,
} from './catalog.js';
import { formatTimestamp } from './clock.js';
import { describeIssues, fail, invalid, ok } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxResponse, SandboxTransaction, StoredCustomer } from './types.js';

/** Minutes a payment link stays valid when expiration_time is not sent (not shown by the spec). */
const DEFAULT_EXPIRATION_MINUTES = 60;

export function createPayIn(
  state: SandboxState,
  merchant: SandboxMerchant,
  body: unknown,
  legacy: boolean,
): SandboxResponse {
  // The SDK's own request schemas: the simulator refuses exactly what the client refuses.
  const parsed = safeParse(legacy ? PayInLegacyCreateParamsSchema : PayInCreateParamsSchema, body);
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  const params = parsed.data;
  const mismatch = checkMerchant(merchant, params.country);
  if (mismatch) return mismatch;
  if (state.hasReference(merchant, params.reference)) return duplicate(params.reference);

  const customer = params.customer_data;
  const pseDirect = params.payment_method === 'PSE' && customer.bank !== undefined;
  const pseBank = pseDirect ? findPseBank(customer.bank!) : undefined;
  if (pseDirect && !pseBank) {
    return invalid(
      `customer_data.bank: '${customer.bank}' is not a PSE bank code; use one from GET /api/v1/pse/banks (sandbox bank: ${SANDBOX_PSE_BANK.code} ${SANDBOX_PSE_BANK.name}).`,
    );
  }

  const now = state.clock.now();
  const ticket = state.newTicket();
  const mode = payInMode(params.payment_method, pseDirect);
  const expiresAt = formatTimestamp(now + (params.expiration_time ?? DEFAULT_EXPIRATION_MINUTES) * 60_000);
  const cus = params.payment_method === 'PSE' ? newCus() : undefined;
  let info: PaymentInformation | undefined;
  if (mode !== 'checkout') {
    info = paymentInformation(
      params.payment_method,
      params.amount,
      params.currency,
      expiresAt,
      customer,
      cus,
    );
    if (pseBank) info.info.bank_name = pseBank.name;
  }
  const paymentUrl = mode === 'direct' && !legacy ? undefined : `${state.baseUrl}/checkout/${ticket}`;

  const transaction: SandboxTransaction = {
    type: 'PAYIN',
    ticket,
    reference: params.reference,
    merchant: merchant.username,
    amount: params.amount,
    currency: merchant.currency,
    country: merchant.country,
    payment_method: params.payment_method,
    customer: storedCustomer(customer),
    ipn_url: params.ipn_url,
    redirect_url: params.redirect_url,
    description: params.description,
    metadata: undefined,
    externalIds: info?.externalIds ?? [],
    paymentInformation: info?.info,
    createdAt: now,
    submittedAt: undefined,
    status: 'PENDING',
    responseMessage: 'Transaction pending',
    updatedAt: now,
    cus,
    card: undefined,
  };
  state.add(transaction);
  scheduleAutoCompletion(state, transaction, pseBank?.code === SANDBOX_PSE_BANK.code);

  const echo: Record<string, unknown> = {
    reference: transaction.reference,
    amount: transaction.amount,
    currency: transaction.currency,
    payment_method: transaction.payment_method,
  };
  if (params.redirect_url !== undefined) echo.redirect_url = params.redirect_url;
  if (params.ipn_url !== undefined) echo.ipn_url = params.ipn_url;
  if (params.description !== undefined) echo.description = params.description;
  const data: Record<string, unknown> = { ticket, date: formatTimestamp(now) };
  if (paymentUrl !== undefined) data.payment_url = paymentUrl;
  if (info) data.payment_information = info.info;
  data.transaction = echo;
  return ok(data, 'PayIn created');
}

/**
 * Methods the sandbox completes by itself (spec "Sandbox confirm", prerequisite 5): NEQUI_PUSH
 * is pushed and approved; PSE with the sandbox bank Banka approves for the test e-mail and
 * rejects any other address (spec "customer_data": email).
 */
function scheduleAutoCompletion(state: SandboxState, transaction: SandboxTransaction, banka: boolean): void {
  let outcome: string | undefined;
  if (transaction.payment_method === 'NEQUI_PUSH') outcome = 'APPROVED';
  else if (banka) {
    const approved = transaction.customer.email.toLowerCase() === SANDBOX_PSE_APPROVED_EMAIL;
    outcome = approved ? 'APPROVED' : 'REJECTED';
  }
  if (!outcome) return;
  const to = outcome;
  state.schedule(state.autoCompleteDelayMs, () => {
    if (transaction.status === 'PENDING') state.setStatus(transaction, to);
  });
}

function findPseBank(bank: string) {
  return SANDBOX_PSE_BANKS.find((b) => b.code === bank || b.name.toLowerCase() === bank.toLowerCase());
}

/** Spec: currency and country "must match merchant country". */
export function checkMerchant(merchant: SandboxMerchant, country: string): SandboxResponse | undefined {
  if (country === merchant.country) return undefined;
  return invalid(
    `country: must be ${merchant.country} (currency ${merchant.currency}), the country of this merchant.`,
  );
}

export function duplicate(reference: string): SandboxResponse {
  return fail(
    422,
    'DUPLICATE_REFERENCE',
    `reference '${reference}' is already used by another transaction of this merchant; references are unique per merchant.`,
  );
}

/** The customer as the service sends it back: a lookup's `customer`, a webhook's `top_user`. */
export function publicCustomer(c: StoredCustomer) {
  const { legal_doc_type, legal_doc, phone_code, phone_number, email, full_name } = c;
  return { legal_doc_type, legal_doc, phone_code, phone_number, email, full_name };
}

export function storedCustomer(customer: Record<string, unknown>): StoredCustomer {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(customer)) {
    if (typeof value === 'string' || typeof value === 'number') out[key] = String(value);
  }
  return out as unknown as StoredCustomer;
}
