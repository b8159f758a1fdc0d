import type { WebhookEvent } from '../schemas/webhook.js';
import type { Tracer } from '../tracing/tracer.js';
import {
  createWebhookHandler,
  type WebhookHandler,
  type WebhookHandlerOptions,
} from '../webhooks/handler.js';
import type { HeadersLike, RawBody } from '../webhooks/parse.js';
import type { SignatureScheme } from '../webhooks/signature.js';
import { verifyWebhook } from '../webhooks/verify.js';

/** Webhook verification with the client's own token: `client.webhooks`. */
export class WebhooksResource {
  readonly #token: string;
  readonly #scheme: SignatureScheme | undefined;
  readonly #tracer: Tracer | undefined;
  /** @internal Built by PaymentClient; reach it as `client.webhooks`. */
  constructor(options: { token: string; scheme?: SignatureScheme | undefined; tracer?: Tracer | undefined }) {
    this.#token = options.token;
    this.#scheme = options.scheme;
    this.#tracer = options.tracer;
  }

  /**
   * Verifies the `x-trx-signature` of a delivery with the client's token and returns the typed event.
   * @throws WebhookVerificationError (see `reason`)
   * @example
   * const event = client.webhooks.verify(rawBody, req.headers); // rawBody: the exact bytes received
   */
  verify(rawBody: RawBody, headers: HeadersLike, options: { maxBodyBytes?: number } = {}): WebhookEvent {
    return verifyWebhook(rawBody, headers, { ...options, ...this.#schemeOption(), token: this.#token });
  }

  /**
   * `createWebhookHandler` with the client's token, signature scheme and tracer (unless given).
   * @example
   * export const POST = client.webhooks.createHandler({ onEvent: (event) => console.log(event.top_status) });
   */
  createHandler(options: Omit<WebhookHandlerOptions, 'token' | 'scheme'>): WebhookHandler {
    const tracer = options.tracer ?? this.#tracer;
    return createWebhookHandler({
      ...options,
      ...this.#schemeOption(),
      ...(tracer ? { tracer } : {}),
      token: this.#token,
    });
  }

  #schemeOption(): { scheme?: SignatureScheme } {
    return this.#scheme === undefined ? {} : { scheme: this.#scheme };
  }
}
