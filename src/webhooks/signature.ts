/**
 * x-trx-signature (spec "Events", rule 1): a SHA-256 hash computed from the merchant token,
 * the ticket and the reference. The spec does not show the concatenation order nor the
 * encoding, so the scheme is selectable (node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md):
 * - 'json' (default): hex SHA-256 of JSON.stringify({ token, ticket, reference }), keys in
 *   that order, as one public integration of the service computes it;
 * - 'concat': hex SHA-256 of token + ticket + reference;
 * - a function of the same input returning the expected header value.
 */
import type { OptionRule } from '../core/options.js';
import { sha256Hex, sha256HexAsync } from './crypto.js';

/** The header that carries the signature (spec "Events", rule 1). */
export const SIGNATURE_HEADER = 'x-trx-signature';

/** What the `x-trx-signature` is computed from. */
export interface SignatureInput {
  /** The merchant token (the one sent as `Token-Top`). */
  token: string;
  /** The service's ticket of the transaction (`top_ticket`). */
  ticket: string;
  /** The merchant's reference of the transaction (`top_reference`). */
  reference: string;
}

/**
 * 'json' (default): hex SHA-256 of `JSON.stringify({ token, ticket, reference })`;
 * 'concat': hex SHA-256 of `token + ticket + reference`.
 */
export type BuiltInSignatureScheme = 'json' | 'concat';
/**
 * How `x-trx-signature` is computed: a built-in scheme or a function returning the expected
 * header value. The spec leaves the exact input open; `detectWebhookScheme` names the scheme
 * of a captured genuine delivery (node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md).
 */
export type SignatureScheme = BuiltInSignatureScheme | ((input: SignatureInput) => string);

export const BUILT_IN_SCHEMES: readonly BuiltInSignatureScheme[] = ['json', 'concat'];

/** The `scheme` option's rule (core/options.ts): a built-in name or a function. */
export const SCHEME_RULE: OptionRule = {
  valid: (value) => typeof value === 'function' || BUILT_IN_SCHEMES.includes(value as BuiltInSignatureScheme),
  expects: "'json', 'concat' or a function",
};

/**
 * The expected `x-trx-signature` of a delivery for this ticket and reference.
 * @example
 * const signature = computeWebhookSignature({ token, ticket: event.top_ticket, reference: event.top_reference });
 * const concat = computeWebhookSignature({ token, ticket, reference }, 'concat');
 * @throws ConfigurationError on a runtime without node:crypto (Vercel Edge): use {@link computeWebhookSignatureAsync}
 */
export function computeWebhookSignature(input: SignatureInput, scheme: SignatureScheme = 'json'): string {
  const { token, ticket, reference } = input;
  if (typeof scheme === 'function') return scheme({ token, ticket, reference });
  return sha256Hex(signedText({ token, ticket, reference }, scheme));
}

/**
 * {@link computeWebhookSignature} for every runtime: node:crypto when present, else Web Crypto
 * (Vercel's Edge Runtime, browsers). A function scheme may return a promise here.
 * @example
 * const signature = await computeWebhookSignatureAsync({ token, ticket, reference });
 */
export async function computeWebhookSignatureAsync(
  input: SignatureInput,
  scheme: SignatureScheme | ((input: SignatureInput) => Promise<string>) = 'json',
): Promise<string> {
  const { token, ticket, reference } = input;
  if (typeof scheme === 'function') return scheme({ token, ticket, reference });
  return sha256HexAsync(signedText({ token, ticket, reference }, scheme));
}

function signedText(input: SignatureInput, scheme: BuiltInSignatureScheme): string {
  const { token, ticket, reference } = input;
  return scheme === 'concat' ? `${token}${ticket}${reference}` : JSON.stringify({ token, ticket, reference });
}
