/**
 * POST /api/v1/payout (guide "POST /api/v1/payout (create PayOut)"): validate with the table's
 * request schema, check the destination and the balance, reserve the amount, store, answer.
 */
import type * as z from 'zod/mini';
import { OPERATIONS } from '../api/operations.js';
import { safeParse } from '../schemas/kit.js';
import { newTrackingId, SANDBOX_PAYOUT_BANKS } from './catalog.js';
import { formatTimestamp } from './clock.js';
import { addMoney, formatBalance } from './merchants.js';
import { checkCreate } from './payin.js';
import { describeIssues, fail, invalid, ok } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxResponse, SandboxTransaction } from './types.js';

type PayOutRequest = z.output<(typeof OPERATIONS)['payout.create']['request']['schema']>;

export function createPayOut(state: SandboxState, merchant: SandboxMerchant, body: unknown): SandboxResponse {
  // The request schema already holds the Mexico rules (account_type CLABE, valid CLABE in both
  // fields), which the guide says are "rejected immediately".
  const parsed = safeParse(OPERATIONS['payout.create'].request.schema, body);
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  const params = parsed.data;
  const refused =
    checkCreate(state, merchant, params.country, params.reference) ??
    checkDestination(params) ??
    checkFunds(merchant, params.amount);
  if (refused) return refused;

  const transaction = storePayOut(state, merchant, params);
  // The reserve: taken now, given back if the bank rejects (guide "States and transitions").
  merchant.balance = addMoney(merchant.balance, -params.amount);
  return ok(
    {
      ticket: transaction.ticket,
      date: formatTimestamp(transaction.createdAt),
      transaction: {
        reference: transaction.reference,
        amount: transaction.amount,
        currency: transaction.currency,
        payment_method: transaction.payment_method,
      },
    },
    'PayOut created',
  );
}

/** Guide: "a Peru PayOut with a bank outside the sandbox catalog is rejected at creation". */
function checkDestination(params: PayOutRequest): SandboxResponse | undefined {
  const peBanks = SANDBOX_PAYOUT_BANKS.PE ?? [];
  const bank = params.customer_data.bank;
  if (params.country !== 'PE' || peBanks.includes(bank)) return undefined;
  return invalid(
    `customer_data.bank: '${bank}' is not in the sandbox bank catalog for PE; use one of ${peBanks.join(', ')}.`,
  );
}

/** Guide "What the service does", "Sandbox funding rule": PayOut spends the balance credited by approved PayIns. */
function checkFunds(merchant: SandboxMerchant, amount: number): SandboxResponse | undefined {
  if (amount <= merchant.balance) return undefined;
  return fail(
    422,
    'INSUFFICIENT_FUNDS',
    `amount ${amount} exceeds the available balance ${formatBalance(merchant.currency, merchant.balance)}; fund the sandbox balance with an approved PayIn first.`,
  );
}

function storePayOut(
  state: SandboxState,
  merchant: SandboxMerchant,
  params: PayOutRequest,
): SandboxTransaction {
  const now = state.clock.now();
  const transaction: SandboxTransaction = {
    type: 'PAYOUT',
    ticket: state.newTicket(),
    reference: params.reference,
    merchant: merchant.username,
    amount: params.amount,
    currency: merchant.currency,
    country: merchant.country,
    payment_method: params.payment_method,
    customer: params.customer_data,
    ipn_url: params.ipn_url,
    redirect_url: undefined,
    description: undefined,
    metadata: params.metadata,
    externalIds: [newTrackingId()],
    paymentInformation: undefined,
    createdAt: now,
    submittedAt: now + state.payoutSubmissionDelayMs * state.timeScale,
    status: 'PENDING',
    responseMessage: 'Transaction pending',
    updatedAt: now,
    cus: undefined,
    card: undefined,
  };
  state.add(transaction);
  return transaction;
}
