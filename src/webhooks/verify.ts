/**
 * verifyWebhook: the one entry point that turns an untrusted delivery into a typed event.
 * Order matters: the cheap checks (raw body, size, header present) come before parsing, and the
 * signature is checked before the full schema so a forged body answers 401, not 400.
 */
import { ConfigurationError, WebhookVerificationError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import { ANY, type OptionTable, positive } from '../core/options.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { constantTimeEqual } from './crypto.js';
import { checkWebhookOptions } from './options.js';
import {
  decodeBody,
  getHeader,
  type HeadersLike,
  malformed,
  type RawBody,
  readBodyText,
  toEvent,
} from './parse.js';
import {
  BUILT_IN_SCHEMES,
  type BuiltInSignatureScheme,
  computeWebhookSignature,
  computeWebhookSignatureAsync,
  SCHEME_RULE,
  SIGNATURE_HEADER,
  type SignatureScheme,
} from './signature.js';
import { type Keyring, type KeyringEntry, keyringOf, signerOf, type WebhookTokens } from './tokens.js';

export { SIGNATURE_HEADER };

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /**
   * The merchant token (the same one sent as Token-Top), or several for one endpoint that
   * receives for several merchants: an array, or a record `{ [merchant]: token }`. The event's
   * non-enumerable `merchant` then names the one whose token signed it (key or index).
   */
  token: WebhookTokens;
  /** How the signature is computed; default 'json'. See node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md. */
  scheme?: SignatureScheme;
  /** Deliveries larger than this are refused unread. Default 262,144 (256 KB). */
  maxBodyBytes?: number;
}

/**
 * Verifies the `x-trx-signature` of a delivery and returns its typed event.
 * @param rawBody the body exactly as received (string, Buffer or Uint8Array), never a parsed object
 * @param headers the request headers (a `Headers`, Node's `req.headers` or a plain object)
 * @throws WebhookVerificationError with `reason` missing_signature | signature_mismatch |
 *   malformed_body | body_too_large | parsed_body
 * @example
 * // node:http; in Express use express.raw() so req.body is the untouched Buffer
 * const chunks: Buffer[] = [];
 * for await (const chunk of req) chunks.push(chunk);
 * try {
 *   const event = verifyWebhook(Buffer.concat(chunks), req.headers, { token: process.env.PAYINOUT_TOKEN! });
 *   console.log(event.top_ticket, event.top_status);
 *   res.writeHead(200).end();
 * } catch (error) {
 *   res.writeHead(error instanceof WebhookVerificationError ? 401 : 500).end();
 * }
 * @throws ConfigurationError on a runtime without node:crypto (Vercel's Edge Runtime): use
 *   {@link verifyWebhookAsync} there
 */
export function verifyWebhook(
  rawBody: RawBody,
  headers: HeadersLike,
  options: VerifyWebhookOptions,
): WebhookEvent {
  return verifyWithKeyring(rawBody, headers, options, checkVerifyOptions(options, 'verifyWebhook'));
}

/**
 * {@link verifyWebhook} once its options are checked and its tokens are a keyring: what
 * `client.webhooks.verify` runs with the client's one token, checked when the client was built.
 */
export function verifyWithKeyring(
  rawBody: RawBody,
  headers: HeadersLike,
  options: Omit<VerifyWebhookOptions, 'token'>,
  keyring: Keyring,
): WebhookEvent {
  const signed = readSigned(rawBody, headers, options.maxBodyBytes);
  const scheme = options.scheme ?? 'json';
  const expected = keyring.entries.map(({ token }) =>
    computeWebhookSignature({ token, ...signed.fields }, scheme),
  );
  const { event, signer } = settle(signed, keyring, expected);
  return withMerchant(event, keyring, signer);
}

/**
 * {@link verifyWebhook} for every runtime, including those without `node:` built-ins (Vercel's
 * Edge Runtime): node:crypto when present, else Web Crypto. Same checks, same errors.
 * @example
 * // Vercel Edge / Workers route
 * const event = await verifyWebhookAsync(await request.text(), request.headers, { token });
 */
export async function verifyWebhookAsync(
  rawBody: RawBody,
  headers: HeadersLike,
  options: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  const keyring = checkVerifyOptions(options, 'verifyWebhookAsync');
  const { event, signer } = await verifyDelivery(rawBody, headers, options, keyring);
  return withMerchant(event, keyring, signer);
}

/** A verified delivery and the keyring entry whose token signed it (the handler's form). */
export async function verifyDelivery(
  rawBody: RawBody,
  headers: HeadersLike,
  options: Omit<VerifyWebhookOptions, 'token'>,
  keyring: Keyring,
): Promise<{ event: WebhookEvent; signer: KeyringEntry }> {
  const signed = readSigned(rawBody, headers, options.maxBodyBytes);
  const scheme = options.scheme ?? 'json';
  const expected = await Promise.all(
    keyring.entries.map(({ token }) => computeWebhookSignatureAsync({ token, ...signed.fields }, scheme)),
  );
  return settle(signed, keyring, expected);
}

/**
 * The one verify core, after the expected signatures are computed (synchronously or not): the
 * entry that signed the delivery, else signature_mismatch; then the typed event.
 */
function settle(
  signed: Signed,
  keyring: Keyring,
  expected: readonly string[],
): { event: WebhookEvent; signer: KeyringEntry } {
  const signer = signerOf(keyring, signed.signature, expected, signatureMatches);
  if (!signer) throw mismatch(keyring);
  return { event: toEvent(signed.record), signer };
}

/** With several tokens, the event names the merchant whose token signed it (non-enumerable). */
function withMerchant(event: WebhookEvent, keyring: Keyring, signer: KeyringEntry): WebhookEvent {
  if (keyring.several)
    Object.defineProperty(event, 'merchant', { value: signer.merchant, enumerable: false });
  return event;
}

/**
 * Which built-in scheme a captured, genuine delivery was signed with, or null when none
 * matches (then the token is wrong or the service uses a scheme this SDK does not know).
 * Only the signature is checked, so a body that fails the event schema still names its scheme.
 * @example
 * const scheme = detectWebhookScheme(capturedBody, capturedHeaders, token); // 'json' | 'concat' | null
 */
export function detectWebhookScheme(
  rawBody: RawBody,
  headers: HeadersLike,
  token: string,
): BuiltInSignatureScheme | null {
  // Raw body (any size) → header present → body readable; then each scheme's signature over
  // (token, ticket, reference) against the header, the body read once.
  let signed: Signed;
  try {
    signed = readSigned(rawBody, headers, Number.POSITIVE_INFINITY);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return null;
  }
  const { signature, fields } = signed;
  const signedWith = (scheme: BuiltInSignatureScheme) =>
    signatureMatches(signature, computeWebhookSignature({ token, ...fields }, scheme));
  return BUILT_IN_SCHEMES.find(signedWith) ?? null;
}

/** What a delivery shows before any crypto: the received signature, the body as a record and the fields it signs. */
interface Signed {
  signature: string;
  fields: { ticket: string; reference: string };
  record: Record<string, unknown>;
}

function readSigned(rawBody: unknown, headers: unknown, maxBodyBytes: number | undefined): Signed {
  const text = readBodyText(rawBody, maxBodyBytes);
  const signature = getHeader(headers, SIGNATURE_HEADER)?.trim();
  if (!signature) {
    throw new WebhookVerificationError(
      'missing_signature',
      `The request has no ${SIGNATURE_HEADER} header, so it cannot come from the service. If a proxy strips headers, forward ${SIGNATURE_HEADER} unchanged.`,
    );
  }
  const record = decodeBody(text, getHeader(headers, 'content-type'));
  return { signature, fields: signedFields(record), record };
}

/**
 * signature_mismatch. A keyring of several tokens words it itself (tokens.ts), naming its entries;
 * this is the one-token wording, the only one a client's `webhooks.verify` can meet.
 */
function mismatch(keyring: Keyring): WebhookVerificationError {
  return new WebhookVerificationError(
    'signature_mismatch',
    keyring.unmatched?.() ??
      `The ${SIGNATURE_HEADER} header does not match this body for the one token given. Usual cause: a delivery for another merchant reaching this receiver; if it serves several merchants (CO, PE, MX accounts), give each token: token: { co: '…', pe: '…' } (${guide('webhooks.md', 'several-merchants-one-receiver')}). Else check that the token is the merchant token of this environment and that the body is passed unmodified. Only if every genuine delivery of this merchant fails, the service may sign another way: run detectWebhookScheme() on one captured delivery (${guide('webhooks.md', 'signature-scheme-what-is-known-and-what-is-not')}).`,
  );
}

/** Ticket and reference as signed: the body's values as text. */
function signedFields(record: Record<string, unknown>): { ticket: string; reference: string } {
  const ticket = asText(record.top_ticket);
  const reference = asText(record.top_reference);
  if (ticket === undefined || reference === undefined) {
    throw malformed('top_ticket and top_reference are required (the signature covers them)');
  }
  return { ticket, reference };
}

function asText(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Constant-time comparison; hex digests compare case-insensitively. */
function signatureMatches(received: string, expected: string): boolean {
  return constantTimeEqual(normalizeHex(received), normalizeHex(expected));
}

const normalizeHex = (value: string) => (/^[0-9a-fA-F]+$/.test(value) ? value.toLowerCase() : value);

/**
 * The token is checked as a keyring (keyringOf), after the table. `@__PURE__`: client.webhooks.verify
 * has its own table, so a bundle of the client alone drops this one.
 */
const VERIFY_OPTIONS: OptionTable<VerifyWebhookOptions> = {
  token: ANY,
  scheme: SCHEME_RULE,
  maxBodyBytes: /* @__PURE__ */ positive('bytes'),
};

/**
 * Configuration mistakes are ConfigurationError (a bug to fix), never a verification failure:
 * the options by the rules of core/options.ts, then the token(s) as a keyring.
 */
function checkVerifyOptions(options: VerifyWebhookOptions, who: string): Keyring {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError(
      `${who} needs { token }: the merchant token (PAYINOUT_TOKEN) that the service signs webhooks with.`,
    );
  }
  checkWebhookOptions(who, options, VERIFY_OPTIONS);
  return keyringOf(options.token, who);
}
