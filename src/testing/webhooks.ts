/**
 * Webhook test helpers for merchants' own tests (and the simulator): deliveries signed
 * exactly as verifyWebhook expects them.
 */
import type { WebhookEventInput } from '../schemas/webhook.js';
import { computeWebhookSignature, type SignatureInput, type SignatureScheme } from '../webhooks/signature.js';
import { SIGNATURE_HEADER } from '../webhooks/verify.js';
import { SANDBOX_WEBHOOK_USER_AGENT } from './delivery.js';

/** The `x-trx-signature` value for this ticket and reference (same as computeWebhookSignature). */
export function signWebhook(input: SignatureInput, scheme: SignatureScheme = 'json'): string {
  return computeWebhookSignature(input, scheme);
}

/** Options of {@link buildWebhookDelivery}. */
export interface BuildWebhookDeliveryOptions {
  /** The merchant token the receiver verifies with. */
  token: string;
  /** Signature scheme; default 'json'. */
  scheme?: SignatureScheme;
  /** 'json' (default, the documented form) or 'form' (application/x-www-form-urlencoded, objects JSON-encoded). */
  encoding?: 'json' | 'form';
  /** Extra headers, e.g. to override user-agent. */
  headers?: Record<string, string>;
}

/** A signed delivery: POST `body` with `headers` to a receiver. */
export interface SignedWebhookDelivery {
  body: string;
  headers: Record<string, string>;
}

/**
 * A delivery signed exactly as `verifyWebhook` expects it, to test your receiver without the
 * simulator.
 * @example
 * const { body, headers } = buildWebhookDelivery(
 *   { top_ticket: 'T-1', top_reference: 'order-1001', top_status: 'APPROVED', top_amount: 150000 },
 *   { token: 'test-token' },
 * );
 * const response = await handler(new Request('http://localhost/webhooks', { method: 'POST', body, headers }));
 */
export function buildWebhookDelivery(
  event: WebhookEventInput,
  options: BuildWebhookDeliveryOptions,
): SignedWebhookDelivery {
  const signature = signWebhook(
    { token: options.token, ticket: String(event.top_ticket), reference: String(event.top_reference) },
    options.scheme,
  );
  const form = options.encoding === 'form';
  const body = form ? formEncode(event) : JSON.stringify(event);
  return {
    body,
    headers: {
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      'user-agent': SANDBOX_WEBHOOK_USER_AGENT,
      [SIGNATURE_HEADER]: signature,
      ...options.headers,
    },
  };
}

function formEncode(event: WebhookEventInput): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(event)) {
    if (value === undefined) continue;
    params.append(key, value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return params.toString();
}
