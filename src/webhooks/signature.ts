/**
 * x-trx-signature (spec "Events", rule 1): a SHA-256 hash computed from the merchant token,
 * the ticket and the reference. The spec does not show the concatenation order nor the
 * encoding, so the scheme is selectable (docs/webhooks.md):
 * - 'json' (default): hex SHA-256 of JSON.stringify({ token, ticket, reference }), keys in
 *   that order, as one public integration of the service computes it;
 * - 'concat': hex SHA-256 of token + ticket + reference;
 * - a function of the same input returning the expected header value.
 */
import { createHash } from 'node:crypto';

export interface SignatureInput {
  token: string;
  ticket: string;
  reference: string;
}

export type BuiltInSignatureScheme = 'json' | 'concat';
export type SignatureScheme = BuiltInSignatureScheme | ((input: SignatureInput) => string);

export const BUILT_IN_SCHEMES: readonly BuiltInSignatureScheme[] = ['json', 'concat'];

const sha256Hex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** The expected `x-trx-signature` of a delivery for this ticket and reference. */
export function computeWebhookSignature(input: SignatureInput, scheme: SignatureScheme = 'json'): string {
  const { token, ticket, reference } = input;
  if (typeof scheme === 'function') return scheme({ token, ticket, reference });
  if (scheme === 'concat') return sha256Hex(`${token}${ticket}${reference}`);
  return sha256Hex(JSON.stringify({ token, ticket, reference }));
}
