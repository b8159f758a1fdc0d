/**
 * The HTTP answers of the webhook handler. The service retries until it gets a 200 (spec
 * "Events", rules 3–4), so the status code is the contract; bodies name the reason, never
 * the handler's error text (it may hold customer data).
 */

/** What the handler answers, framework-neutral. */
export interface WebhookHandlerResult {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP status of each verification failure. */
export const STATUS_BY_REASON = {
  missing_signature: 401,
  signature_mismatch: 401,
  malformed_body: 400,
  parsed_body: 400,
  body_too_large: 413,
} as const;

export function answer(
  status: number,
  payload: object,
  extra: Record<string, string> = {},
): WebhookHandlerResult {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...extra },
    body: JSON.stringify(payload),
  };
}

export const processed = () => answer(200, { received: true, result: 'processed' });
export const duplicate = () => answer(200, { received: true, result: 'duplicate' });

/** 409 keeps the service retrying (a 200 would end the retries; see docs/webhooks.md). */
export const retryLater = (error: string, message: string) =>
  answer(409, { error, message }, { 'retry-after': '60' });

export const unavailable = (error: string, message: string) =>
  answer(503, { error, message }, { 'retry-after': '60' });

export const handlerFailed = () =>
  answer(500, { error: 'handler_failed', message: 'onEvent failed; the service will retry.' });

export const internalError = () =>
  answer(500, { error: 'internal_error', message: 'The webhook could not be processed.' });

export const methodNotAllowed = () =>
  answer(
    405,
    { error: 'method_not_allowed', message: 'Webhooks are delivered with POST.' },
    { allow: 'POST' },
  );
