/** Advice for refusals whose cause needs other words than their HTTP status class gives. */

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
