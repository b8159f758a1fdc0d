/**
 * The HTTP answers of the webhook handler. The service retries until it gets a 200 (spec
 * "Events", rules 3–4), so the status code is the contract; bodies name the reason, never
 * the handler's error text (it may hold customer data).
 */
import type { WebhookFailureReason } from '../core/errors.js';

/**
 * Why a delivery got its answer, in one word: the `verdict` of a result, the
 * `payinout.webhook.verdict` of its span, and what `onError` and the default log line name.
 */
export type WebhookVerdict =
  /** 200: onEvent ran. */
  | 'processed'
  /** 200: this event (ticket + status) was processed before. */
  | 'duplicate'
  /** 409: another request is processing the same event. */
  | 'in_flight'
  /** 401: no x-trx-signature, or one no token computes. */
  | 'invalid_signature'
  /** 400: a body parser ran before the handler (the signed bytes are gone). */
  | 'parsed_body'
  /** 400: not a readable event. */
  | 'malformed_body'
  /** 413: above maxBodyBytes. */
  | 'body_too_large'
  /** 409: with confirmWith, the lookup does not show what the delivery claims. */
  | 'not_confirmed'
  /** 503: with confirmWith, the lookup failed or timed out. */
  | 'confirm_unavailable'
  /** 503: the dedupe store failed. */
  | 'store_unavailable'
  /** 500: onEvent threw. */
  | 'handler_failed'
  /** 405: not a POST. */
  | 'method_not_allowed'
  /** 500: an unexpected failure (a custom scheme that throws, a broken stream). */
  | 'internal_error';

/** What the handler answers, framework-neutral. */
export interface WebhookHandlerResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Why: see {@link WebhookVerdict}. */
  verdict: WebhookVerdict;
}

/** The HTTP status and verdict of each verification failure, by its `reason`. */
export const REFUSALS = {
  missing_signature: [401, 'invalid_signature'],
  signature_mismatch: [401, 'invalid_signature'],
  malformed_body: [400, 'malformed_body'],
  parsed_body: [400, 'parsed_body'],
  body_too_large: [413, 'body_too_large'],
} as const satisfies Record<WebhookFailureReason, readonly [number, WebhookVerdict]>;

export function answer(
  status: number,
  verdict: WebhookVerdict,
  payload: object,
  extra: Record<string, string> = {},
): WebhookHandlerResult {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(payload),
    verdict,
  };
}

export const processed = () => answer(200, 'processed', { received: true, result: 'processed' });
export const duplicate = () => answer(200, 'duplicate', { received: true, result: 'duplicate' });

/** 409 keeps the service retrying (a 200 would end the retries; see node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md). */
export const retryLater = (verdict: 'in_flight' | 'not_confirmed', message: string) =>
  answer(409, verdict, { error: verdict, message }, { 'retry-after': '60' });

export const unavailable = (error: 'confirm_unavailable' | 'dedupe_unavailable', message: string) =>
  answer(
    503,
    error === 'dedupe_unavailable' ? 'store_unavailable' : error,
    { error, message },
    { 'retry-after': '60' },
  );

export const handlerFailed = () =>
  answer(500, 'handler_failed', {
    error: 'handler_failed',
    message: 'onEvent failed; the service will retry.',
  });

export const internalError = () =>
  answer(500, 'internal_error', { error: 'internal_error', message: 'The webhook could not be processed.' });

export const methodNotAllowed = () =>
  answer(
    405,
    'method_not_allowed',
    { error: 'method_not_allowed', message: 'Webhooks are delivered with POST.' },
    { allow: 'POST' },
  );
