/**
 * Hostile tracers for the property suites: a real OpenTelemetry SDK tracer (so context and
 * parentage are real) behind a wrapper that breaks it as an exporter bug, a full buffer or a
 * careless wrapping tracer would: a span method that throws, returns an odd value (a rejected or
 * never-settling promise, a non-boolean) or hangs; a `startActiveSpan` that throws before or
 * after running the callback, forgets to return its value, returns something else, runs it
 * twice, late, or never. The wrapper counts `end` per span it handed out, for "every span is
 * ended exactly once".
 */
import fc from 'fast-check';
import type { Span, Tracer } from '../../src/index.js';
import { otel } from './otel.js';

export const SPAN_METHODS = [
  'addEvent',
  'end',
  'setAttribute',
  'setAttributes',
  'isRecording',
  'recordException',
  'setStatus',
] as const;
export type SpanMethod = (typeof SPAN_METHODS)[number];

/** How one span method misbehaves. */
export type MethodFault = 'ok' | 'throw' | 'odd' | 'reject' | 'hang';
/** How `startActiveSpan` misbehaves. */
export type StartFault =
  | 'ok'
  | 'throw-before'
  | 'throw-after'
  | 'forget'
  | 'odd-value'
  | 'reject'
  | 'twice'
  | 'late'
  | 'never'
  | 'no-span';

export interface TracerFaults {
  start: StartFault;
  span: Partial<Record<SpanMethod, MethodFault>>;
}

export const START_FAULTS: StartFault[] = [
  'ok',
  'throw-before',
  'throw-after',
  'forget',
  'odd-value',
  'reject',
  'twice',
  'late',
  'never',
  'no-span',
];
const METHOD_FAULTS: MethodFault[] = ['ok', 'throw', 'odd', 'reject', 'hang'];

/** Any combination of faults; about half the runs break at least one span method. */
export const tracerFaults: fc.Arbitrary<TracerFaults> = fc.record({
  start: fc.constantFrom(...START_FAULTS),
  span: fc.record(
    Object.fromEntries(SPAN_METHODS.map((method) => [method, fc.constantFrom(...METHOD_FAULTS)])) as Record<
      SpanMethod,
      fc.Arbitrary<MethodFault>
    >,
    { requiredKeys: [] },
  ),
});

/** What an odd method returns instead of what OpenTelemetry's does. */
function oddValue(method: SpanMethod): unknown {
  const poisoned = {
    valueOf: () => {
      throw new Error('odd value');
    },
  };
  return method === 'isRecording' ? 'maybe' : poisoned;
}

function broken(method: SpanMethod, fault: MethodFault, real: () => unknown): unknown {
  if (fault === 'throw') throw new Error(`exporter buffer full (${method})`);
  const value = real();
  if (fault === 'odd') return oddValue(method);
  if (fault === 'reject') return Promise.reject(new Error(`exporter down (${method})`));
  if (fault === 'hang') return new Promise(() => {});
  return value;
}

export interface HostileTracer {
  tracer: Tracer;
  faults: TracerFaults;
  /** Spans handed to a callback, with how many times `end` was called on each. */
  ends(): number[];
  /** Resolves once every late callback has run. */
  settled(): Promise<void>;
}

export function hostileTracer(faults: TracerFaults): HostileTracer {
  const inner = otel().tracer;
  const handed: { ends: number }[] = [];
  const late: Promise<void>[] = [];
  const wrap = (span: Span): Span => {
    const record = { ends: 0 };
    handed.push(record);
    const hostile: Record<string, (...args: unknown[]) => unknown> = {};
    for (const method of SPAN_METHODS) {
      hostile[method] = (...args) => {
        if (method === 'end') record.ends++;
        const real = (span as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
        return broken(method, faults.span[method] ?? 'ok', () => real?.apply(span, args));
      };
    }
    return hostile as unknown as Span;
  };
  const start = (name: string, options: object, fn: (span: Span) => unknown): unknown => {
    switch (faults.start) {
      case 'throw-before':
        throw new Error('tracer not initialised');
      case 'never':
        return undefined;
      case 'no-span':
        return fn(undefined as unknown as Span);
      case 'late':
        late.push(
          new Promise((resolve) =>
            setTimeout(() => {
              inner.startActiveSpan(name, options, (span) => fn(wrap(span as unknown as Span)));
              resolve();
            }, 5),
          ),
        );
        return undefined;
      default:
        return inner.startActiveSpan(name, options, (span) =>
          around(faults.start, fn, wrap, span as unknown as Span),
        );
    }
  };
  const tracer = {
    startActiveSpan: start,
    startSpan: () => {
      throw new Error('startSpan is not available');
    },
  } as unknown as Tracer;
  return {
    tracer,
    faults,
    ends: () => handed.map((record) => record.ends),
    settled: async () => {
      await Promise.all(late);
      // Let ends attached to already-settled work run.
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
}

function around(
  fault: StartFault,
  fn: (span: Span) => unknown,
  wrap: (span: Span) => Span,
  span: Span,
): unknown {
  const value = fn(wrap(span));
  if (fault === 'twice') fn(wrap(span));
  if (fault === 'throw-after') throw new Error('context manager failed');
  if (fault === 'forget') return undefined;
  if (fault === 'odd-value') return 42;
  if (fault === 'reject') return Promise.reject(new Error('wrapping tracer failed'));
  return value;
}
