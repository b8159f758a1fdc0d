/** Advice for refusals whose cause needs other words than their HTTP status class gives. */
import { guide } from './guides.js';

/**
 * Refusals whose cause calls for other advice than the status class's. The guide names no
 * identifiers for them, so the identifier and the (Spanish or English) message are both read.
 */
const REFUSALS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /DUPLICATE|ALREADY_EXISTS|REFERENCE_(EXISTS|USED|TAKEN)|referencia (ya )?(existe|usada|duplicada)|reference (already )?(exists|used)/i,
    'The reference is already used by this merchant. Look it up with client.transactions.get(reference): if it is this payment, it exists and must not be created again; if it is another, choose a new reference for this one.',
  ],
  [
    /INSUFFICIENT|NOT_ENOUGH|saldo insuficiente|fondos insuficientes|insufficient (funds|balance)/i,
    'The merchant balance does not cover this amount. Check client.merchant.getBalance() (in the sandbox, fund it with an approved PayIn), then create it again with the same reference.',
  ],
];

export function refusalAdvice(
  errorCode: string | undefined,
  message: string | undefined,
): string | undefined {
  const text = `${errorCode ?? ''} ${message ?? ''}`;
  return REFUSALS.find(([pattern]) => pattern.test(text))?.[1];
}

/**
 * A 404 on a sandbox path. Production has no sandbox endpoints and answers every sandbox confirm
 * 404 NOT_FOUND (spec "Environments", "Errors"), exactly as an unknown transaction_id is answered,
 * so the environment comes first: a client pointed at a production address by mistake is the
 * cause a "check the ticket" hides.
 */
export function sandboxNotFoundAdvice(
  status: number | undefined,
  path: string | undefined,
): string | undefined {
  if (status !== 404 || !path?.includes('/sandbox/')) return undefined;
  return `If baseUrl (PAYINOUT_BASE_URL) is a production address, it has no sandbox endpoints: use the staging or UAT root. Otherwise transaction_id is not this merchant's (ticket, Bre-B key, cash reference or CLABE): ${guide('testing.md', 'sandbox-confirm-supported-statuses')}`;
}
