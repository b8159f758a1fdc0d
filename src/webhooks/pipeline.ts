/**
 * One delivery, one job per step: verify → confirm → dedupe → dispatch → respond. Each step
 * either hands its result on or returns the HTTP answer that ends the delivery; a step that
 * fails reports it once (report.ts: to onError, or one log line).
 */
import { WebhookVerificationError } from '../core/errors.js';
import type { DeliveryNotes as ObservedDeliveryNotes } from '../core/observer-events.js';
import type { Transaction } from '../schemas/transaction.js';
import type { WebhookEvent } from '../schemas/webhook.js';
import { confirmEvent, type TransactionLookup, WebhookNotConfirmedError } from './confirm.js';
import type { WebhookDeduplicator } from './dedupe.js';
import type { DedupeLease } from './lease.js';
import type { HeadersLike, RawBody } from './parse.js';
import type { Failure } from './report.js';
import type { WebhookHandlerResult } from './respond.js';
import * as respond from './respond.js';
import type { SignatureScheme } from './signature.js';
import type { Keyring } from './tokens.js';
import { verifyDelivery } from './verify.js';

/** What onEvent receives besides the event. */
export interface WebhookEventContext {
  /** With `confirmWith`: the transaction as the lookup returned it, which backs the event. */
  transaction?: Transaction;
  /**
   * With several tokens (an array or a record): the record key, or the array index, of the token
   * that signed the delivery — which merchant account it is for.
   */
  merchant?: string | number;
}

/** Everything a delivery needs, fixed when the handler is created. */
export interface Pipeline {
  verify: { maxBodyBytes: number; scheme?: SignatureScheme };
  keyring: Keyring;
  onEvent: (event: WebhookEvent, context: WebhookEventContext) => unknown;
  dedupe: WebhookDeduplicator | undefined;
  confirmWith: TransactionLookup | undefined;
  confirmTimeoutMs: number;
  report: (failure: Failure) => void;
}

/** What one delivery learnt on its way, for its observers: the observer seam's notes, the event typed. */
export interface DeliveryNotes extends ObservedDeliveryNotes {
  event?: WebhookEvent;
}

type Step<T> = { ok: true; value: T } | { ok: false; answer: WebhookHandlerResult };
const next = <T>(value: T): Step<T> => ({ ok: true, value });
const stop = <T>(answer: WebhookHandlerResult): Step<T> => ({ ok: false, answer });

/** Reports a failure once and keeps it for the delivery's span. */
export function failed(p: Pipeline, notes: DeliveryNotes, failure: Failure): void {
  notes.error ??= failure.error;
  p.report(failure);
}

export async function processDelivery(
  p: Pipeline,
  rawBody: RawBody,
  headers: HeadersLike,
  notes: DeliveryNotes = {},
): Promise<WebhookHandlerResult> {
  const verified = await verify(p, rawBody, headers, notes);
  if (!verified.ok) return verified.answer;
  const event = verified.value;
  const confirmed = await confirm(p, event, notes);
  if (!confirmed.ok) return confirmed.answer;
  const claimed = await claim(p, event, notes);
  if (!claimed.ok) return claimed.answer;
  return dispatch(p, event, confirmed.value, claimed.value, notes);
}

async function verify(
  p: Pipeline,
  rawBody: RawBody,
  headers: HeadersLike,
  notes: DeliveryNotes,
): Promise<Step<WebhookEvent>> {
  try {
    const { event, signer } = await verifyDelivery(rawBody, headers, p.verify, p.keyring);
    notes.event = event;
    if (p.keyring.several) notes.merchant = signer.merchant;
    return next(event);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return stop(refused(p, notes, error));
  }
}

/**
 * A delivery that fails verification (or is refused before it could be read: receive.ts),
 * reported and answered by its reason: 401, 400 or 413.
 */
export function refused(
  p: Pipeline,
  notes: DeliveryNotes,
  error: WebhookVerificationError,
): WebhookHandlerResult {
  const [status, verdict] = respond.REFUSALS[error.reason];
  failed(p, notes, { error, status, verdict });
  return respond.answer(status, verdict, { error: error.reason, message: error.message });
}

async function confirm(
  p: Pipeline,
  event: WebhookEvent,
  notes: DeliveryNotes,
): Promise<Step<WebhookEventContext>> {
  const merchant = notes.merchant === undefined ? {} : { merchant: notes.merchant };
  if (!p.confirmWith) return next(merchant);
  const result = await confirmEvent(p.confirmWith, event, p.confirmTimeoutMs);
  if (result.confirmed) return next({ transaction: result.transaction, ...merchant });
  const { error } = result;
  if (error instanceof WebhookNotConfirmedError) {
    failed(p, notes, { error, status: 409, verdict: 'not_confirmed', event });
    return stop(
      respond.retryLater('not_confirmed', 'The transaction lookup does not show this delivery; retry later.'),
    );
  }
  failed(p, notes, { error, status: 503, verdict: 'confirm_unavailable', event });
  return stop(respond.unavailable('confirm_unavailable', 'The transaction lookup failed; retry later.'));
}

/** undefined lease: dedupe is off. */
async function claim(
  p: Pipeline,
  event: WebhookEvent,
  notes: DeliveryNotes,
): Promise<Step<DedupeLease | undefined>> {
  if (!p.dedupe) return next(undefined);
  let acquired: Awaited<ReturnType<WebhookDeduplicator['acquire']>>;
  try {
    acquired = await p.dedupe.acquire(event);
  } catch (error) {
    failed(p, notes, { error, status: 503, verdict: 'store_unavailable', event });
    return stop(respond.unavailable('dedupe_unavailable', 'Dedupe store unavailable; retry later.'));
  }
  if (acquired.result === 'duplicate') return stop(respond.duplicate());
  // Another request holds the claim: expected with concurrent retries, so not reported.
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
  notes: DeliveryNotes,
): Promise<WebhookHandlerResult> {
  try {
    await (lease ? lease.hold(() => p.onEvent(event, context)) : p.onEvent(event, context));
  } catch (error) {
    // Release first so the service's retry is processed; the error text may hold PII, so it is not sent.
    await lease
      ?.release()
      .catch((releaseError: unknown) =>
        p.report({ error: releaseError, status: 500, verdict: 'store_unavailable', event }),
      );
    failed(p, notes, { error, status: 500, verdict: 'handler_failed', event });
    return respond.handlerFailed();
  }
  // Processed: a failure to record it only risks a duplicate later, so the answer stays 200.
  await lease
    ?.complete()
    .catch((error: unknown) => p.report({ error, status: 200, verdict: 'store_unavailable', event }));
  return respond.processed();
}
