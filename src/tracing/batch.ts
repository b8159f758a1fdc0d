/**
 * The spans of PayOut batches, as an observer of the runner's events (core/observer-events.ts).
 * `createMany` is one INTERNAL span with a child span per item; a payinout/bullmq worker makes
 * each job a CONSUMER span (OpenTelemetry's messaging convention for processing a message).
 * Under an item's or a job's span its lookups and create (CLIENT spans, calls.ts) nest.
 * Attribute values are as safe as a call's: a reference or a batch id is scrubbed of the item's PII.
 */
import type { Proceed } from '../core/observer.js';
import type { BatchCounts, BatchStart, ItemSettled, ItemStart, JobStart } from '../core/observer-events.js';
import { collectSecrets } from '../core/redact.js';
import { fail, safeText, traceWork } from './span.js';
import { ATTR, type Attributes, SPAN_KIND, type Span, type TraceOutcome, type Tracer } from './tracer.js';

/** The batch span, active while the batch runs; its counts are set when it ends. */
export function traceBatch(tracer: Tracer, start: BatchStart, proceed: Proceed): unknown {
  const attributes = { [ATTR.operation]: start.operation, 'payinout.batch.total': start.total };
  const options = { kind: SPAN_KIND.INTERNAL, attributes };
  return traceWork(tracer, start.operation, options, proceed, (span, value) => {
    const summary = value as BatchCounts;
    for (const key of ['done', 'created', 'recovered', 'failed'] as const)
      span.setAttribute(`payinout.batch.${key}`, summary[key]);
  });
}

/** One item's span, a child of the batch's; its lookups and create are its children. */
export function traceItem(tracer: Tracer, start: ItemStart, proceed: Proceed): unknown {
  const site = { name: 'payout.createMany item', kind: SPAN_KIND.INTERNAL };
  return traceSettlement(tracer, site, start, { 'payinout.batch.index': start.index }, proceed);
}

/**
 * One queue job's span (payinout/bullmq): a root span of its own, or a child of whatever span is
 * active in the worker; its lookups and create are its children.
 */
export function traceJob(tracer: Tracer, start: JobStart, proceed: Proceed): unknown {
  const site = { name: 'payout.queue job', kind: SPAN_KIND.CONSUMER };
  const attributes = {
    'messaging.system': 'bullmq',
    'messaging.operation.type': 'process',
    'messaging.destination.name': safeText(start.queue, secretsOf(start.item)),
    'payinout.batch.id': safeText(start.batchId, secretsOf(start.item)),
  };
  return traceSettlement(tracer, site, start, attributes, proceed);
}

/** The span of one PayOut settled by the engine: operation, scrubbed reference, outcome, ticket. */
function traceSettlement(
  tracer: Tracer,
  site: { name: string; kind: number },
  start: { item: unknown; reference: string },
  extra: Attributes,
  proceed: Proceed,
): unknown {
  const attributes = {
    [ATTR.operation]: 'payout.create',
    [ATTR.reference]: safeText(start.reference, secretsOf(start.item)),
    ...extra,
  };
  const options = { kind: site.kind, attributes };
  return traceWork(tracer, site.name, options, proceed, (span, value) => settled(span, value as ItemSettled));
}

function settled(span: Span, result: ItemSettled): void {
  span.setAttribute('payinout.batch.outcome', result.outcome);
  span.setAttribute(ATTR.outcome, outcomeOf(result));
  if (result.ticket) span.setAttribute('payinout.ticket', result.ticket);
  if (result.error) fail(span, result.error);
}

/** The item's credentials and PII, which no attribute may hold; none when it cannot be read. */
function secretsOf(item: unknown): readonly string[] {
  try {
    return collectSecrets(item);
  } catch {
    return [];
  }
}

function outcomeOf(result: ItemSettled): TraceOutcome {
  if (result.outcome === 'created') return 'ok';
  if (result.outcome === 'recovered') return 'recovered';
  return (result.error as { outcome?: unknown } | undefined)?.outcome === 'unknown' ? 'unknown' : 'failed';
}
