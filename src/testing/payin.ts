/**
 * POST /api/v2/payin and the deprecated POST /api/v1/payin (guide "POST /api/v2/payin (create PayIn; recommended)",
 * "POST /api/v1/payin (legacy, deprecated)"): validate with the table's request schema, decide
 * how the method answers (checkout link, payment information, or both), store, answer.
 */
import type * as z from 'zod/mini';
import { OPERATIONS } from '../api/operations.js';
import { safeParse } from '../schemas/kit.js';
import type { PayInCreated } from '../schemas/payin-result.js';
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
import type { SandboxMerchant, SandboxResponse, SandboxTransaction } from './types.js';

/** Minutes a payment link stays valid when expiration_time is not sent (not shown by the guide). */
const DEFAULT_EXPIRATION_MINUTES = 60;

/** A v2 or legacy request as the table's schema parses it. */
type PayInRequest =
  | z.output<(typeof OPERATIONS)['payin.create']['request']['schema']>
  | z.output<(typeof OPERATIONS)['payin.createLegacy']['request']['schema']>;
type PseBank = (typeof SANDBOX_PSE_BANKS)[number];

/** How the PayIn is paid: the checkout link and/or the provider's payment information. */
interface PaymentDetails {
  paymentUrl: string | undefined;
  info: PaymentInformation | undefined;
  cus: string | undefined;
  /** PSE direct with the sandbox bank completes by itself. */
  banka: boolean;
}

export function createPayIn(
  state: SandboxState,
  merchant: SandboxMerchant,
  body: unknown,
  legacy: boolean,
): SandboxResponse {
  const operation = legacy ? OPERATIONS['payin.createLegacy'] : OPERATIONS['payin.create'];
  // The table's request schemas: the simulator refuses exactly what the client refuses.
  const parsed = safeParse(operation.request.schema, body);
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  const params = parsed.data;
  const refused = checkCreate(state, merchant, params.country, params.reference);
  if (refused) return refused;
  const pseBank = pseDirectBank(params);
  if (pseBank === null) return unknownPseBank(params.customer_data.bank);

  const now = state.clock.now();
  const ticket = state.newTicket();
  const details = paymentDetails(state, ticket, params, pseBank, legacy, now);
  const transaction = storePayIn(state, merchant, ticket, params, details, now);
  scheduleAutoCompletion(state, transaction, details.banka);
  return ok(answer(transaction, params, details, now), 'PayIn created');
}

/**
 * What any create refuses before storing (shared with payout.ts): a country that is not the
 * merchant's (guide: currency and country "Must match merchant country"), a reused reference.
 */
export function checkCreate(
  state: SandboxState,
  merchant: SandboxMerchant,
  country: string,
  reference: string,
): SandboxResponse | undefined {
  if (country !== merchant.country) {
    return invalid(
      `country: must be ${merchant.country} (currency ${merchant.currency}), the country of this merchant.`,
    );
  }
  if (!state.hasReference(merchant, reference)) return undefined;
  return fail(
    422,
    'DUPLICATE_REFERENCE',
    `reference '${reference}' is already used by another transaction of this merchant; references are unique per merchant.`,
  );
}

/** PSE direct's bank: undefined when not PSE direct; null when the code is not a PSE bank. */
function pseDirectBank(params: PayInRequest): PseBank | undefined | null {
  const bank = params.customer_data.bank;
  if (params.payment_method !== 'PSE' || bank === undefined) return undefined;
  const wanted = bank.toLowerCase();
  return SANDBOX_PSE_BANKS.find((b) => b.code === bank || b.name.toLowerCase() === wanted) ?? null;
}

function unknownPseBank(bank: string | undefined): SandboxResponse {
  return invalid(
    `customer_data.bank: '${bank}' is not a PSE bank code; use one from GET /api/v1/pse/banks (sandbox bank: ${SANDBOX_PSE_BANK.code} ${SANDBOX_PSE_BANK.name}).`,
  );
}

/** Guide "PayIn creation result": payment_url for Checkout/Hybrid, payment_information for Direct/Hybrid. */
function paymentDetails(
  state: SandboxState,
  ticket: string,
  params: PayInRequest,
  pseBank: PseBank | undefined,
  legacy: boolean,
  now: number,
): PaymentDetails {
  const { payment_method: method, amount, currency, customer_data: customer } = params;
  const mode = payInMode(method, pseBank !== undefined);
  const cus = method === 'PSE' ? newCus() : undefined;
  let info: PaymentInformation | undefined;
  if (mode !== 'checkout') {
    const minutes = params.expiration_time ?? DEFAULT_EXPIRATION_MINUTES;
    const expiresAt = formatTimestamp(now + minutes * 60_000);
    info = paymentInformation({ method, amount, currency, expiresAt, customer, cus });
    if (pseBank) info.info.bank_name = pseBank.name;
  }
  // The legacy answer always carries a payment_url (guide: "ticket, payment_url and transaction details").
  const paymentUrl = mode === 'direct' && !legacy ? undefined : `${state.baseUrl}/checkout/${ticket}`;
  return { paymentUrl, info, cus, banka: pseBank?.code === SANDBOX_PSE_BANK.code };
}

function storePayIn(
  state: SandboxState,
  merchant: SandboxMerchant,
  ticket: string,
  params: PayInRequest,
  details: PaymentDetails,
  now: number,
): SandboxTransaction {
  const transaction: SandboxTransaction = {
    type: 'PAYIN',
    ticket,
    reference: params.reference,
    merchant: merchant.username,
    amount: params.amount,
    currency: merchant.currency,
    country: merchant.country,
    payment_method: params.payment_method,
    customer: params.customer_data,
    ipn_url: params.ipn_url,
    redirect_url: params.redirect_url,
    description: params.description,
    metadata: undefined,
    externalIds: details.info?.externalIds ?? [],
    paymentInformation: details.info?.info,
    createdAt: now,
    submittedAt: undefined,
    status: 'PENDING',
    responseMessage: 'Transaction pending',
    updatedAt: now,
    cus: details.cus,
    card: undefined,
  };
  state.add(transaction);
  return transaction;
}

/** The create answer: the request fields the table says it echoes, and the payment details. */
function answer(
  transaction: SandboxTransaction,
  params: PayInRequest,
  details: PaymentDetails,
  now: number,
): z.input<(typeof OPERATIONS)['payin.create']['response']['tolerant']> {
  const echo: PayInCreated['transaction'] = {
    reference: transaction.reference,
    amount: transaction.amount,
    currency: transaction.currency,
    payment_method: transaction.payment_method,
  };
  for (const key of OPERATIONS['payin.create'].recovery.echoed) {
    const value = params[key];
    if (typeof value === 'string') echo[key] = value;
  }
  return {
    ticket: transaction.ticket,
    date: formatTimestamp(now),
    ...(details.paymentUrl === undefined ? {} : { payment_url: details.paymentUrl }),
    ...(details.info ? { payment_information: details.info.info } : {}),
    transaction: echo,
  };
}

/**
 * Methods the sandbox completes by itself (guide "POST /api/v1/sandbox/payin/confirm and POST /api/v1/sandbox/payout/confirm", "Prerequisites", item 5): NEQUI_PUSH is pushed
 * and approved; PSE with the sandbox bank Banka approves for the test e-mail and rejects any
 * other address (guide "customer_data (PayIn request)": email).
 */
function scheduleAutoCompletion(state: SandboxState, transaction: SandboxTransaction, banka: boolean): void {
  let outcome: 'APPROVED' | 'REJECTED' | undefined;
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
