/** Reads: transaction search, merchant profile and balance, PSE banks (guide "Endpoints"). */
import { SANDBOX_PSE_BANKS } from './catalog.js';
import { isRecord, nonEmpty } from './http.js';
import { formatBalance } from './merchants.js';
import { describeTransaction } from './records.js';
import { fail, invalid, ok } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxResponse } from './types.js';

/** GET or POST /api/v1/transaction/{ticket}: by ticket or merchant reference; POST may carry { ticket }. */
export function search(
  state: SandboxState,
  merchant: SandboxMerchant,
  pathId: string | undefined,
  body: unknown,
): SandboxResponse {
  const id = pathId || (isRecord(body) ? nonEmpty(body.ticket) : undefined);
  if (!id) return invalid('ticket: give the ticket or reference in the path or as { "ticket": "…" }.');
  const transaction = state.find(merchant, id);
  if (!transaction || (transaction.ticket !== id && transaction.reference !== id)) {
    return fail(404, 'NOT_FOUND', `No transaction with ticket or reference '${id}' for this merchant.`);
  }
  return ok(describeTransaction(transaction), 'Transaction found');
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
