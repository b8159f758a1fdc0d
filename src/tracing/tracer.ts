/**
 * The OpenTelemetry shapes payinout accepts, typed structurally so the package depends on no
 * OpenTelemetry module: the `Tracer` a merchant passes (`trace.getTracer('payinout')`), the
 * `Span` it returns, and the constants and attribute names payinout's spans use. What calls them
 * is trace.ts.
 */

/** An attribute value as OpenTelemetry takes it. */
export type AttributeValue = string | number | boolean;
/** Attributes; undefined values are left out. */
export type Attributes = Record<string, AttributeValue | undefined>;

/** The part of an OpenTelemetry `Span` payinout calls. */
export interface Span {
  /** False for a span nobody records (tracing off): payinout then skips building attributes. */
  isRecording?(): boolean;
  /** Sets one attribute (`payinout.outcome`, `http.response.status_code`…). */
  setAttribute(key: string, value: AttributeValue): unknown;
  /** Adds an event: one `payinout.attempt` per HTTP attempt. */
  addEvent(name: string, attributes?: Attributes): unknown;
  /** Marks the span failed (code 2, ERROR) with the error's class as the message. */
  setStatus(status: { code: number; message?: string }): unknown;
  /** Ends the span, when the call or delivery ends. */
  end(): void;
}

/** The part of OpenTelemetry's `SpanOptions` payinout passes. */
export interface SpanOptions {
  /** SpanKind: 0 INTERNAL, 1 SERVER, 2 CLIENT, 4 CONSUMER. */
  kind?: number;
  attributes?: Attributes;
}

/**
 * The part of an OpenTelemetry `Tracer` payinout calls: `startActiveSpan`, which runs the given
 * function inside the span's context, so spans started within (a reconciliation lookup, a batch
 * item, the merchant's own spans in `onEvent`) are its children.
 */
export interface Tracer {
  /**
   * Starts a span and runs `fn` with it as the active span, returning what `fn` returns.
   * @typeParam F the function run inside the span's context
   */
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
}

/** OpenTelemetry's SpanKind values. */
export const SPAN_KIND = { INTERNAL: 0, SERVER: 1, CLIENT: 2, CONSUMER: 4 } as const;
/** OpenTelemetry's SpanStatusCode.ERROR. */
export const STATUS_ERROR = 2;

/** The attribute names, in one place (node_modules/payinout/docs/observability.md or https://github.com/payinout/payinout/blob/main/docs/observability.md lists them). */
export const ATTR = {
  method: 'http.request.method',
  template: 'url.template',
  address: 'server.address',
  port: 'server.port',
  status: 'http.response.status_code',
  errorType: 'error.type',
  operation: 'payinout.operation',
  attempts: 'payinout.attempts',
  outcome: 'payinout.outcome',
  reference: 'payinout.reference',
  attempt: 'payinout.attempt',
  durationMs: 'payinout.attempt.duration_ms',
} as const;

/** How a traced call ended: the contract's `payinout.outcome` values. */
export type TraceOutcome = 'ok' | 'recovered' | 'failed' | 'unknown';
