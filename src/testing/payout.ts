/** POST /api/v1/payout (spec "Endpoints"): validation, destination checks, balance reserve. */

import { safeParse } from '../schemas/kit.js';
import { PayOutCreateParamsSchema } from '../schemas/payout.js';
import { newTrackingId, SANDBOX_PAYOUT_BANKS } from './catalog.js';
import { formatTimestamp } from './clock.js';
import { addMoney, formatBalance } from './merchants.js';
import { checkMerchant, duplicate, storedCustomer } from './payin.js';
import { describeIssues, fail, invalid, ok } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxResponse, SandboxTransaction } from './types.js';

export function createPayOut(state: SandboxState, merchant: SandboxMerchant, body: unknown): SandboxResponse {
  // The SDK schema already holds the Mexico rules (account_type CLABE, valid CLABE in both fields),
  // which the spec says are "rejected immediately".
  const parsed = safeParse(PayOutCreateParamsSchema, body);
  if (!parsed.success) return invalid(describeIssues(parsed.error.issues));
  const params = parsed.data;
  const mismatch = checkMerchant(merchant, params.country);
  if (mismatch) return mismatch;
  if (state.hasReference(merchant, params.reference)) return duplicate(params.reference);

  const customer = params.customer_data;
  // Spec: "a Peru PayOut with a bank outside the sandbox catalog is rejected at creation".
  const peBanks = SANDBOX_PAYOUT_BANKS.PE!;
  if (params.country === 'PE' && !peBanks.includes(customer.bank)) {
    return invalid(
      `customer_data.bank: '${customer.bank}' is not in the sandbox bank catalog for PE; use one of ${peBanks.join(', ')}.`,
    );
  }
  // Spec "Sandbox funding rule": PayOut spends the balance credited by approved PayIns.
  if (params.amount > merchant.balance) {
    return fail(
      422,
      'INSUFFICIENT_FUNDS',
      `amount ${params.amount} exceeds the available balance ${formatBalance(merchant.currency, merchant.balance)}; fund the sandbox balance with an approved PayIn first.`,
    );
  }

  const now = state.clock.now();
  const ticket = state.newTicket();
  const transaction: SandboxTransaction = {
    type: 'PAYOUT',
    ticket,
    reference: params.reference,
    merchant: merchant.username,
    amount: params.amount,
    currency: merchant.currency,
    country: merchant.country,
    payment_method: params.payment_method,
    customer: storedCustomer(customer),
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
  // The reserve: taken now, given back if the bank rejects (spec "States and transitions").
  merchant.balance = addMoney(merchant.balance, -params.amount);
  state.add(transaction);
  return ok(
    {
      ticket,
      date: formatTimestamp(now),
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
