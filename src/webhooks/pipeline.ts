/**
 * One delivery, one job per step: verify → confirm → dedupe → dispatch → respond. Each step
 * either hands its result on or returns the HTTP answer that ends the delivery.
 */
import { WebhookVerificationError } from '../core/errors.js';
import type { Logger } from '../core/transport.js';
import type { Transaction } from '../schemas/transaction.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { confirmEvent, type TransactionLookup, WebhookNotConfirmedError } from './confirm.js';
import type { WebhookDeduplicator } from './dedupe.js';
import type { DedupeLease } from './lease.js';
import type { HeadersLike, RawBody } from './parse.js';
import type { WebhookHandlerResult } from './respond.js';
import * as respond from './respond.js';
import type { SignatureScheme } from './signature.js';
import { verifyWebhookAsync } from './verify.js';

/** What onEvent receives besides the event. */
export interface WebhookEventContext {
  /** With `confirmWith`: the transaction as the lookup returned it, which backs the event. */
  transaction?: Transaction;
}

/** Everything a delivery needs, fixed when the handler is created. */
export interface Pipeline {
  verify: { token: string; maxBodyBytes: number; scheme?: SignatureScheme };
  onEvent: (event: WebhookEvent, context: WebhookEventContext) => unknown;
  dedupe: WebhookDeduplicator | undefined;
  confirmWith: TransactionLookup | undefined;
  confirmTimeoutMs: number;
  logger: Pick<Logger, 'warn' | 'error'>;
  report: (error: unknown, status: number, event?: WebhookEvent) => void;
}

type Step<T> = { ok: true; value: T } | { ok: false; answer: WebhookHandlerResult };
const next = <T>(value: T): Step<T> => ({ ok: true, value });
const stop = <T>(answer: WebhookHandlerResult): Step<T> => ({ ok: false, answer });

export async function processDelivery(p: Pipeline, rawBody: RawBody, headers: HeadersLike) {
  const verified = await verify(p, rawBody, headers);
  if (!verified.ok) return verified.answer;
  const event = verified.value;
  const confirmed = await confirm(p, event);
  if (!confirmed.ok) return confirmed.answer;
  const claimed = await claim(p, event);
  if (!claimed.ok) return claimed.answer;
  return dispatch(p, event, confirmed.value, claimed.value);
}

async function verify(p: Pipeline, rawBody: RawBody, headers: HeadersLike): Promise<Step<WebhookEvent>> {
  try {
    return next(await verifyWebhookAsync(rawBody, headers, p.verify));
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    const status = respond.STATUS_BY_REASON[error.reason];
    p.report(error, status);
    return stop(respond.answer(status, { error: error.reason, message: error.message }));
  }
}

async function confirm(p: Pipeline, event: WebhookEvent): Promise<Step<WebhookEventContext>> {
  if (!p.confirmWith) return next({});
  const result = await confirmEvent(p.confirmWith, event, p.confirmTimeoutMs);
  if (result.confirmed) return next({ transaction: result.transaction });
  const { error } = result;
  if (error instanceof WebhookNotConfirmedError) {
    p.logger.warn(error.message, { ticket: error.ticket, mismatched: error.mismatched });
    p.report(error, 409, event);
    return stop(
      respond.retryLater('not_confirmed', 'The transaction lookup does not show this delivery; retry later.'),
    );
  }
  p.report(error, 503, event);
  return stop(respond.unavailable('confirm_unavailable', 'The transaction lookup failed; retry later.'));
}

/** undefined lease: dedupe is off. */
async function claim(p: Pipeline, event: WebhookEvent): Promise<Step<DedupeLease | undefined>> {
  if (!p.dedupe) return next(undefined);
  let acquired: Awaited<ReturnType<WebhookDeduplicator['acquire']>>;
  try {
    acquired = await p.dedupe.acquire(event);
  } catch (error) {
    p.report(error, 503, event);
    return stop(respond.unavailable('dedupe_unavailable', 'Dedupe store unavailable; retry later.'));
  }
  if (acquired.result === 'duplicate') return stop(respond.duplicate());
  if (acquired.result === 'in-flight') {
    return stop(
      respond.retryLater('in_flight', 'This event is being processed by another request; retry later.'),
    );
  }
  return next(acquired.lease);
}

async function dispatch(
  p: Pipeline,
  event: WebhookEvent,
  context: WebhookEventContext,
  lease: DedupeLease | undefined,
): Promise<WebhookHandlerResult> {
  try {
    await (lease ? lease.hold(() => p.onEvent(event, context)) : p.onEvent(event, context));
  } catch (error) {
    // Release first so the service's retry is processed; the error text may hold PII, so it is not sent.
    await lease?.release().catch((releaseError: unknown) => p.report(releaseError, 500, event));
    p.report(error, 500, event);
    return respond.handlerFailed();
  }
  // Processed: a failure to record it only risks a duplicate later, so the answer stays 200.
  await lease?.complete().catch((error: unknown) => p.report(error, 200, event));
  return respond.processed();
}
