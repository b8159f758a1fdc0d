/**
 * trace: the spans of PayOut batches. `createMany` is one INTERNAL span with a child span per
 * item; a payinout/bullmq worker makes each job a CONSUMER span (OpenTelemetry's messaging
 * convention for processing a message). Under an item's or a job's span its lookups and create
 * (CLIENT spans, core/trace.ts) nest. Attribute values are as safe as a call's: a reference or a
 * batch id is scrubbed of the item's PII.
 */
import { collectSecrets } from '../core/redact.js';
import { fail, safeText, traceWork } from '../core/trace.js';
import { ATTR, type Attributes, SPAN_KIND, type TraceOutcome, type Tracer } from '../core/tracer.js';
import { referenceOf } from './item.js';
import type { PayOutBatchProgress, PayOutBatchResult } from './types.js';

/** The batch span, active while the batch runs; its counts are set when it ends. */
export function traceBatch<T extends PayOutBatchProgress>(
  tracer: Tracer,
  total: number,
  run: () => Promise<T>,
): Promise<T> {
  const attributes = { [ATTR.operation]: 'payout.createMany', 'payinout.batch.total': total };
  return traceWork(tracer, 'payout.createMany', { kind: SPAN_KIND.INTERNAL, attributes }, async (span) => {
    const summary = await run();
    for (const key of ['done', 'created', 'recovered', 'failed'] as const)
      span.setAttribute(`payinout.batch.${key}`, summary[key]);
    return summary;
  });
}

/** One item's span, a child of the batch's; its lookups and create are its children. */
export function traceItem(
  tracer: Tracer,
  item: unknown,
  index: number,
  settle: () => Promise<PayOutBatchResult>,
): Promise<PayOutBatchResult> {
  const site = { name: 'payout.createMany item', kind: SPAN_KIND.INTERNAL };
  return traceSettlement(tracer, site, item, { 'payinout.batch.index': index }, settle);
}

/** Where a queue job came from: its queue and its batch. */
export interface JobSite {
  queue: string;
  batchId: string;
}

/**
 * One queue job's span (payinout/bullmq): a root span of its own, or a child of whatever span is
 * active in the worker; its lookups and create are its children.
 */
export function traceJob(
  tracer: Tracer,
  item: unknown,
  job: JobSite,
  settle: () => Promise<PayOutBatchResult>,
): Promise<PayOutBatchResult> {
  const site = { name: 'payout.queue job', kind: SPAN_KIND.CONSUMER };
  const attributes = {
    'messaging.system': 'bullmq',
    'messaging.operation.type': 'process',
    'messaging.destination.name': safeText(job.queue, secretsOf(item)),
    'payinout.batch.id': safeText(job.batchId, secretsOf(item)),
  };
  return traceSettlement(tracer, site, item, attributes, settle);
}

/** The span of one PayOut settled by the engine: operation, scrubbed reference, outcome, ticket. */
function traceSettlement(
  tracer: Tracer,
  site: { name: string; kind: number },
  item: unknown,
  extra: Attributes,
  settle: () => Promise<PayOutBatchResult>,
): Promise<PayOutBatchResult> {
  const attributes = {
    [ATTR.operation]: 'payout.create',
    [ATTR.reference]: safeText(referenceOf(item), secretsOf(item)),
    ...extra,
  };
  return traceWork(tracer, site.name, { kind: site.kind, attributes }, async (span) => {
    const result = await settle();
    span.setAttribute('payinout.batch.outcome', result.outcome);
    span.setAttribute(ATTR.outcome, outcomeOf(result));
    if (result.ticket) span.setAttribute('payinout.ticket', result.ticket);
    if (result.error) fail(span, result.error);
    return result;
  });
}

/** The item's credentials and PII, which no attribute may hold; none when it cannot be read. */
function secretsOf(item: unknown): readonly string[] {
  try {
    return collectSecrets(item);
  } catch {
    return [];
  }
}

function outcomeOf(result: PayOutBatchResult): TraceOutcome {
  if (result.outcome === 'created') return 'ok';
  if (result.outcome === 'recovered') return 'recovered';
  return (result.error as { outcome?: unknown } | undefined)?.outcome === 'unknown' ? 'unknown' : 'failed';
}
