/**
 * Webhook handler failures are never silent: each failed delivery goes to `onError` whole (the
 * error itself, its message scrubbed of the tokens and the event's customer data), or, without
 * `onError`, to one `logger.warn` line that says what happened and what to do.
 */
import { copyWith } from '../core/error-base.js';
import { collectSecrets, REDACTED, scrubText } from '../core/redact.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import type { WebhookVerdict } from './respond.js';

/** What a failed delivery reports. */
export interface Failure {
  error: unknown;
  status: number;
  verdict: WebhookVerdict;
  event?: WebhookEvent | undefined;
}

/** What `onError` receives besides the error. */
export interface WebhookErrorContext {
  /** The HTTP status the delivery was answered (200 when only recording it as processed failed). */
  status: number;
  /** Why, in one word: 'invalid_signature', 'handler_failed', … (node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md). */
  verdict: WebhookVerdict;
  /** The verified event, once the signature was checked. */
  event?: WebhookEvent;
}

export type OnWebhookError = (error: unknown, context: WebhookErrorContext) => void;

export interface ReportOptions {
  onError: OnWebhookError | undefined;
  logger: { warn(message: string): void };
  /** The merchant tokens, never to be repeated. */
  tokens: readonly string[];
}

/** The report function of a handler: to onError, else one line; never throws. */
export function reporter({ onError, logger, tokens }: ReportOptions): (failure: Failure) => void {
  return (failure) => {
    const secrets = { tokens, pii: collectSecrets(failure.event) };
    const { status, verdict, event } = failure;
    try {
      if (onError)
        onError(
          redactedError(failure.error, secrets),
          event ? { status, verdict, event } : { status, verdict },
        );
      // A delivery the lookup does not back is logged whether or not onError is given (0.2 contract).
      if (!onError || verdict === 'not_confirmed') {
        // One argument: the line says it all, and console.warn prints exactly one line.
        logger.warn(failureLine(failure, secrets));
      }
    } catch {
      // A failing logger or onError must not change the answer.
    }
  };
}

/**
 * What a failure must not repeat: the tokens, exactly (scrubText would also cut every word of
 * one out of ordinary text: 'live' of tok_live_…), and the event's customer data, in every form.
 */
interface Secrets {
  tokens: readonly string[];
  pii: readonly string[];
}

function scrub(text: string, { tokens, pii }: Secrets): string {
  let out = text;
  for (const token of tokens) if (out.includes(token)) out = out.split(token).join(REDACTED);
  return scrubText(out, pii);
}

/** One line: the answer, the cause and what to do; redacted. */
export function failureLine(failure: Failure, secrets: Secrets): string {
  const { status, verdict, error } = failure;
  const head = `payinout webhook answered ${status} (${verdict})`;
  const ticket = failure.event ? ` for ticket ${failure.event.top_ticket}` : '';
  switch (verdict) {
    case 'handler_failed':
      return `${head}${ticket}: onEvent threw ${described(error, secrets)}. The claim was released, so the service's retry runs onEvent again; fix the cause, or pass onError to report failures your own way.`;
    case 'store_unavailable':
      return `${head}${ticket}: the dedupe store failed (${described(error, secrets)}). The service will retry; check that the store (e.g. Redis) is reachable.`;
    case 'internal_error':
      return `${head}: an unexpected failure (${described(error, secrets)}). The service will retry; if it repeats, check the webhook options (a custom scheme that throws, a broken request stream).`;
    default:
      // The SDK's own errors say what happened and what to do.
      return `${head}${ticket}: ${scrub(messageOf(error), secrets)}`;
  }
}

function described(error: unknown, secrets: Secrets): string {
  const name = error instanceof Error ? error.name : typeof error;
  const message = messageOf(error);
  return message ? `${name}: ${scrub(message, secrets).slice(0, 300)}` : name;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : '';
}

/**
 * The error itself when nothing in it is secret; else a copy (same class, same properties, its
 * `cause` kept) whose message and stack are scrubbed. The merchant's error object is never changed.
 */
export function redactedError(error: unknown, secrets: Secrets): unknown {
  if (!(error instanceof Error)) return typeof error === 'string' ? scrub(error, secrets) : error;
  const message = scrub(error.message, secrets);
  const stack = error.stack === undefined ? undefined : scrub(error.stack, secrets);
  if (message === error.message && stack === error.stack) return error;
  return copyWith(error, { message, stack });
}
