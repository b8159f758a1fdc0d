/**
 * A webhook delivery as a SERVER span named `payinout.webhook`, as an observer of the receiver's
 * event (core/observer-events.ts), active while the delivery is processed, so the spans `onEvent`
 * starts (the merchant's database, a `confirmWith` lookup) are its children. Its attributes say
 * how it was answered and why; once the signature is verified, which event it was (ticket and
 * status, never customer data).
 */
import type { Proceed } from '../core/observer.js';
import type { DeliveryAnswer, DeliveryNotes, DeliveryStart } from '../core/observer-events.js';
import { errorType, traceWork } from './span.js';
import { ATTR, type Attributes, SPAN_KIND, type Span, STATUS_ERROR, type Tracer } from './tracer.js';

/** Verdicts that are no failure of the receiver: the span keeps status UNSET. */
const FINE: ReadonlySet<string> = new Set(['processed', 'duplicate', 'in_flight']);

/** The attribute names of a delivery span (node_modules/payinout/docs/observability.md or https://github.com/payinout/payinout/blob/main/docs/observability.md). */
export const WEBHOOK_ATTR = {
  verdict: 'payinout.webhook.verdict',
  merchant: 'payinout.webhook.merchant',
  ticket: 'payinout.webhook.ticket',
  eventStatus: 'payinout.webhook.event_status',
} as const;

/** The `delivery` hook: one span around the delivery. */
export function traceDelivery(tracer: Tracer, start: DeliveryStart, proceed: Proceed): unknown {
  const { method, notes } = start;
  const attributes: Attributes = { [ATTR.method]: method === 'POST' || method === 'GET' ? method : '_OTHER' };
  const options = { kind: SPAN_KIND.SERVER, attributes };
  return traceWork(tracer, 'payinout.webhook', options, proceed, (span, value) =>
    describe(span, value as DeliveryAnswer, notes),
  );
}

function describe(span: Span, result: DeliveryAnswer, notes: DeliveryNotes): void {
  span.setAttribute(ATTR.status, result.status);
  span.setAttribute(WEBHOOK_ATTR.verdict, result.verdict);
  if (notes.merchant !== undefined) span.setAttribute(WEBHOOK_ATTR.merchant, String(notes.merchant));
  if (notes.event) {
    span.setAttribute(WEBHOOK_ATTR.ticket, notes.event.top_ticket);
    span.setAttribute(WEBHOOK_ATTR.eventStatus, String(notes.event.top_status));
  }
  if (FINE.has(result.verdict)) return;
  const type = notes.error === undefined ? result.verdict : errorType(notes.error);
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: STATUS_ERROR, message: result.verdict });
}
