import type { WebhookEvent } from '../schemas/webhook.js';
import type { HeadersLike, RawBody } from '../webhooks/parse.js';
import type { SignatureScheme } from '../webhooks/signature.js';
import { verifyWebhook } from '../webhooks/verify.js';

/**
 * Webhook verification with the client's own token: `client.webhooks`. The receiver (dedupe,
 * leases, status codes) is `createWebhookHandler({ client, onEvent })`, a separate component, so
 * that a bundle which only uses the client does not carry it.
 */
export class WebhooksResource {
  readonly #token: string;
  readonly #scheme: SignatureScheme | undefined;
  /** @internal Built by PaymentClient; reach it as `client.webhooks`. */
  constructor(options: { token: string; scheme?: SignatureScheme | undefined }) {
    this.#token = options.token;
    this.#scheme = options.scheme;
  }

  /**
   * Verifies the `x-trx-signature` of a delivery with the client's token and returns the typed event.
   * For a complete receiver (dedupe, the status codes the service's retries depend on), use
   * `createWebhookHandler({ client, onEvent })`.
   * @throws WebhookVerificationError (see `reason`)
   * @example
   * const event = client.webhooks.verify(rawBody, req.headers); // rawBody: the exact bytes received
   */
  verify(rawBody: RawBody, headers: HeadersLike, options: { maxBodyBytes?: number } = {}): WebhookEvent {
    const scheme = this.#scheme === undefined ? {} : { scheme: this.#scheme };
    return verifyWebhook(rawBody, headers, { ...options, ...scheme, token: this.#token });
  }
}
