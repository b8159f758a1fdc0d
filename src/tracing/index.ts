/**
 * The OpenTelemetry wing: everything payinout knows about OpenTelemetry, as one observer of the
 * engine's events (core/observer.ts). payinout depends on no OpenTelemetry module: the `Tracer`
 * a merchant passes (`trace.getTracer('payinout')`) is typed structurally (tracer.ts), and only
 * this folder calls it. Nothing in core calls a span; the dispatcher (core/dispatch.ts) contains
 * whatever the tracer throws or returns, so a faulty tracer costs at most its spans.
 */
import type { CallEvents, Observer } from '../core/observer.js';
import type { DeliveryEvents, ManyEvents } from '../core/observer-events.js';
import { traceBatch, traceItem, traceJob } from './batch.js';
import { type Origin, originOf, traceCall } from './calls.js';
import type { Tracer } from './tracer.js';
import { traceDelivery } from './webhook.js';

/** Every event a client's observers see: its calls, its batches and their items, queue jobs. */
export type TracedEvents = CallEvents & ManyEvents;

/**
 * The observer that makes spans with `tracer`: calls (to `baseUrl`, whose host and port name
 * the server; without it calls are not traced), batches, items and queue jobs.
 */
export function tracingObserver(tracer: Tracer, baseUrl?: string): Observer<TracedEvents> {
  const origin: Origin | undefined = baseUrl === undefined ? undefined : originOf(baseUrl);
  return {
    ...(origin && { call: (site, proceed) => traceCall(tracer, origin, site, proceed) }),
    batch: (start, proceed) => traceBatch(tracer, start, proceed),
    item: (start, proceed) => traceItem(tracer, start, proceed),
    job: (start, proceed) => traceJob(tracer, start, proceed),
  };
}

/**
 * The observer of a webhook receiver: each delivery a SERVER span. Kept apart from
 * tracingObserver, which every client reaches, so that a bundle of the client alone does not
 * carry the receiver's span.
 */
export function deliveryTracing(tracer: Tracer): Observer<DeliveryEvents> {
  return { delivery: (start, proceed) => traceDelivery(tracer, start, proceed) };
}
