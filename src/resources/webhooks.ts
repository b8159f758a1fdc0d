import { positive } from '../core/options.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { checkWebhookOptions } from '../webhooks/options.js';
import type { HeadersLike, RawBody } from '../webhooks/parse.js';
import type { SignatureScheme } from '../webhooks/signature.js';
import { type Keyring, singleKeyring } from '../webhooks/tokens.js';
import { verifyWithKeyring } from '../webhooks/verify.js';

/** The options `client.webhooks.verify` takes (its token and scheme are the client's). */
const VERIFY_OPTIONS = { maxBodyBytes: positive('bytes') };

/**
 * Webhook verification with the client's own token: `client.webhooks`. The receiver (dedupe,
 * leases, status codes) is `createWebhookHandler({ client, onEvent })`, a separate component, so
 * that a bundle which only uses the client does not carry it.
 */
export class WebhooksResource {
  // The client's one token, checked by the client's options: no keyring to build per delivery,
  // and none of verifyWebhook's checks of token lists in a bundle that uses only the client.
  readonly #keyring: Keyring;
  readonly #scheme: { scheme?: SignatureScheme };
  /** @internal Built by PaymentClient; reach it as `client.webhooks`. */
  constructor(options: { token: string; scheme?: SignatureScheme | undefined }) {
    this.#keyring = singleKeyring(options.token);
    this.#scheme = options.scheme === undefined ? {} : { scheme: options.scheme };
  }

  /**
   * Verifies the `x-trx-signature` of a delivery with the client's token and returns the typed event.
   * For a complete receiver (dedupe, the status codes the service's retries depend on), use
   * `createWebhookHandler({ client, onEvent })`.
   * @throws WebhookVerificationError (see `reason`)
   * @throws ConfigurationError when `options` holds anything but a positive `maxBodyBytes`
   * @example
   * const event = client.webhooks.verify(rawBody, req.headers); // rawBody: the exact bytes received
   */
  verify(rawBody: RawBody, headers: HeadersLike, options: { maxBodyBytes?: number } = {}): WebhookEvent {
    checkWebhookOptions('client.webhooks.verify', options, VERIFY_OPTIONS);
    return verifyWithKeyring(rawBody, headers, { ...options, ...this.#scheme }, this.#keyring);
  }
}
