/** Reads: transaction search, merchant profile and balance, PSE banks (spec "Endpoints"). */
import { SANDBOX_PSE_BANKS } from './catalog.js';
import { formatTimestamp } from './clock.js';
import { formatBalance } from './merchants.js';
import { publicCustomer } from './payin.js';
import { fail, invalid, ok } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxResponse, SandboxTransaction } from './types.js';

/** GET or POST /api/v1/transaction/{ticket}: by ticket or merchant reference; POST may carry { ticket }. */
export function search(
  state: SandboxState,
  merchant: SandboxMerchant,
  pathId: string | undefined,
  body: unknown,
): SandboxResponse {
  const bodyId =
    body !== null && typeof body === 'object' && typeof (body as { ticket?: unknown }).ticket === 'string'
      ? (body as { ticket: string }).ticket
      : undefined;
  const id = pathId || bodyId;
  if (!id) return invalid('ticket: give the ticket or reference in the path or as { "ticket": "…" }.');
  const transaction = state.find(merchant, id);
  if (!transaction || (transaction.ticket !== id && transaction.reference !== id)) {
    return fail(404, 'NOT_FOUND', `No transaction with ticket or reference '${id}' for this merchant.`);
  }
  return ok(describe(transaction), 'Transaction found');
}

/** The search response fields (spec "Transaction (PayIn or PayOut)"); nothing else, so strict clients pass. */
export function describe(transaction: SandboxTransaction): Record<string, unknown> {
  const out: Record<string, unknown> = {
    ticket: transaction.ticket,
    reference: transaction.reference,
    amount: transaction.amount,
    currency: transaction.currency,
    type_transaction: transaction.type,
    customer: publicCustomer(transaction.customer),
    status: transaction.status,
    response_message: transaction.responseMessage,
    date: formatTimestamp(transaction.createdAt),
    metadata: transaction.metadata ?? [],
  };
  if (transaction.cus !== undefined) out.cus = transaction.cus;
  return out;
}

export function profile(merchant: SandboxMerchant): SandboxResponse {
  return ok({
    name: merchant.name,
    nit: merchant.nit,
    email: merchant.email,
    currency: merchant.currency,
    // Spec: wallet is an integer; the raw balance (with decimals) is on /merchant/balance.
    wallet: Math.trunc(merchant.balance),
  });
}

export function balance(merchant: SandboxMerchant): SandboxResponse {
  return ok({
    currency: merchant.currency,
    balance: merchant.balance,
    balance_formatted: formatBalance(merchant.currency, merchant.balance),
  });
}

export function pseBanks(merchant: SandboxMerchant): SandboxResponse {
  if (merchant.country !== 'CO') {
    return fail(
      422,
      'VALIDATION_ERROR',
      `PSE is a Colombian method; this merchant operates in ${merchant.country}.`,
    );
  }
  return ok(SANDBOX_PSE_BANKS.map((bank) => ({ code: bank.code, name: bank.name })));
}
