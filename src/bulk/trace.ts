/**
 * trace: the spans of a PayOut batch (`createMany`): one INTERNAL span for the batch, with a
 * child span per item, under which that item's lookups and create (CLIENT spans, core/trace.ts)
 * nest. Attribute values are as safe as a call's: a reference is scrubbed of the item's PII.
 */
import { collectSecrets } from '../core/redact.js';
import { ATTR, fail, SPAN_KIND, safeText, type TraceOutcome, type Tracer, traceWork } from '../core/trace.js';
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
  const attributes = {
    [ATTR.operation]: 'payout.create',
    [ATTR.reference]: safeText(referenceOf(item), collectSecrets(item)),
    'payinout.batch.index': index,
  };
  return traceWork(
    tracer,
    'payout.createMany item',
    { kind: SPAN_KIND.INTERNAL, attributes },
    async (span) => {
      const result = await settle();
      span.setAttribute('payinout.batch.outcome', result.outcome);
      span.setAttribute(ATTR.outcome, outcomeOf(result));
      if (result.ticket) span.setAttribute('payinout.ticket', result.ticket);
      if (result.error) fail(span, result.error);
      return result;
    },
  );
}

function outcomeOf(result: PayOutBatchResult): TraceOutcome {
  if (result.outcome === 'created') return 'ok';
  if (result.outcome === 'recovered') return 'recovered';
  return (result.error as { outcome?: unknown } | undefined)?.outcome === 'unknown' ? 'unknown' : 'failed';
}
