/**
 * OpenTelemetry tracing without an OpenTelemetry dependency: the `Tracer` a merchant passes
 * (`trace.getTracer('payinout')`) is typed structurally, and this module is the only one that
 * calls it. It knows the attribute names (OpenTelemetry's HTTP semantic conventions plus
 * `payinout.*`) and keeps every value safe: a span gets a URL template, never a path with an id
 * or a full URL; a reference is scrubbed of the request's credentials and PII like a log line
 * (redact.ts); an error is named by its class, never by its message.
 *
 * The transport calls it at a few marked points (`trace:` comments): call start and end, each
 * HTTP attempt (a span event), a reconciliation lookup (a child span of its create). Without a
 * tracer none of this runs: the transport takes its untraced path.
 */
import { scrubText } from './redact.js';
import {
  ATTR,
  type Attributes,
  type AttributeValue,
  SPAN_KIND,
  type Span,
  type SpanOptions,
  STATUS_ERROR,
  type TraceOutcome,
  type Tracer,
} from './tracer.js';

/** What names a call span: the table's operation id and path template, never the filled path. */
export interface CallSite {
  method: string;
  /** The table's operation id, `payin.create`; absent for a call outside the table. */
  operation?: string | undefined;
  /** The table's path template, `/api/v1/transaction/{ticket}`. */
  template?: string | undefined;
}

/** Where the client sends: host and port only (the base URL's path and userinfo never appear). */
export interface Origin {
  address: string;
  port: number;
}

export function originOf(baseUrl: string): Origin {
  const url = new URL(baseUrl);
  const port = url.port ? Number(url.port) : url.protocol === 'http:' ? 80 : 443;
  return { address: url.hostname, port };
}

/**
 * The template as spans show it: each path parameter is `{id}` (`GET /api/v1/transaction/{id}`),
 * the name the public contract gives it, whatever the table calls the parameter.
 */
export function spanTemplate(template: string): string {
  return template.replace(/\{[^}/]*\}/g, '{id}');
}

/**
 * The trace of one public call (or of a lookup inside one) whose span is recorded: counts its
 * HTTP attempts, adds an event per attempt, and ends its span with the contract's attributes.
 */
export class CallTrace {
  /** HTTP attempts of this span, a lookup's included for a create. */
  attempts = 0;
  lastStatus: number | undefined;

  constructor(
    readonly span: Span,
    readonly origin: Origin,
    readonly tracer: Tracer,
    /** The create whose lookup this is: its attempts and last status count this span's too. */
    readonly parent?: CallTrace,
  ) {}

  /** trace: one HTTP attempt ended, with a status or a failure before one. */
  attempt(number: number, status: number | undefined, failure: unknown, durationMs: number): void {
    this.#count(status);
    this.span.addEvent(
      ATTR.attempt,
      defined({
        [ATTR.attempt]: number,
        [ATTR.status]: status,
        [ATTR.errorType]: failure === undefined ? undefined : errorType(failure),
        [ATTR.durationMs]: Math.round(durationMs),
      }),
    );
  }

  #count(status: number | undefined): void {
    this.attempts++;
    if (status !== undefined) this.lastStatus = status;
    if (this.parent) this.parent.#count(status);
  }

  /** trace: the reference a create is known by, scrubbed of the request's credentials and PII. */
  reference(key: string, secrets: () => readonly string[]): void {
    this.span.setAttribute(ATTR.reference, safeText(key, secrets()));
  }

  /** trace: a reconciliation lookup, as a child span of this call's. */
  child<T>(site: CallSite, run: (child: CallTrace | undefined) => Promise<T>): Promise<T> {
    return traceCall(this.tracer, site, this.origin, run, this);
  }

  succeeded(value: unknown): void {
    const recovered = (value as { recovered?: unknown } | null)?.recovered === true;
    this.#end(recovered ? 'recovered' : 'ok');
  }

  failed(error: unknown): void {
    const unknown = (error as { outcome?: unknown } | null)?.outcome === 'unknown';
    // A create refused after its lookups ended with the refusal's status, not the last lookup's
    // (a 422 resend followed by a 404 check is a 422 failure): the span agrees with error.type.
    const refused = (error as { status?: unknown } | null)?.status;
    if (!unknown && typeof refused === 'number') this.lastStatus = refused;
    fail(this.span, error);
    this.#end(unknown ? 'unknown' : 'failed');
  }

  #end(outcome: TraceOutcome): void {
    if (this.lastStatus !== undefined) this.span.setAttribute(ATTR.status, this.lastStatus);
    this.span.setAttribute(ATTR.attempts, this.attempts);
    this.span.setAttribute(ATTR.outcome, outcome);
    this.span.end();
  }
}

/**
 * trace: one call as a CLIENT span named `{METHOD} {url.template}`, active while `run` runs; the
 * span ends with the call. A tracer that throws when asked for a span leaves the call untraced.
 */
export function traceCall<T>(
  tracer: Tracer,
  site: CallSite,
  origin: Origin,
  run: (trace: CallTrace | undefined) => Promise<T>,
  parent?: CallTrace,
): Promise<T> {
  const { name, options } = startOf(site, origin);
  let started = false;
  try {
    return tracer.startActiveSpan(name, options, (span) => {
      started = true;
      // Tracing off (a no-op tracer): the call runs exactly as untraced, at no cost beyond this.
      if (span.isRecording?.() === false) {
        span.end();
        return run(undefined);
      }
      return recorded(new CallTrace(span, origin, tracer, parent), run);
    }) as Promise<T>;
  } catch (error) {
    // A tracer that fails to start a span never stops a payment: the call runs untraced.
    if (started) throw error;
    return run(undefined);
  }
}

async function recorded<T>(trace: CallTrace, run: (trace: CallTrace) => Promise<T>): Promise<T> {
  try {
    const value = await run(trace);
    trace.succeeded(value);
    return value;
  } catch (error) {
    trace.failed(error);
    throw error;
  }
}

/** Span names and start attributes per operation and origin, built once (a client has a handful). */
const starts = new Map<string, { name: string; attributes: Record<string, AttributeValue> }>();

function startOf(site: CallSite, origin: Origin): { name: string; options: SpanOptions } {
  const key = `${site.method} ${site.template} ${site.operation} ${origin.address} ${origin.port}`;
  let start = starts.get(key);
  if (!start) {
    const template = site.template === undefined ? undefined : spanTemplate(site.template);
    const attributes = defined({
      [ATTR.method]: site.method,
      [ATTR.template]: template,
      [ATTR.address]: origin.address,
      [ATTR.port]: origin.port,
      [ATTR.operation]: site.operation,
    });
    start = { name: template ? `${site.method} ${template}` : site.method, attributes };
    if (starts.size > 200) starts.clear();
    starts.set(key, start);
  }
  // A copy: a tracer may keep or change what it is given.
  return { name: start.name, options: { kind: SPAN_KIND.CLIENT, attributes: { ...start.attributes } } };
}

/**
 * A span around work that is not one HTTP call (a batch, one of its items, a webhook delivery),
 * active while `run` runs, which sets its closing attributes; a rejection marks it failed.
 */
export function traceWork<T>(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  run: (span: Span) => Promise<T>,
): Promise<T> {
  const safe = { ...options, attributes: defined(options.attributes ?? {}) };
  return tracer.startActiveSpan(name, safe, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      fail(span, error);
      throw error;
    } finally {
      span.end();
    }
  }) as Promise<T>;
}

/** Marks a span failed: `error.type` (the error's class) and status ERROR; never the message. */
export function fail(span: Span, error: unknown): void {
  const type = errorType(error);
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: STATUS_ERROR, message: type });
}

/**
 * `error.type`: the error's class name (`ServerError`, `TimeoutError`), which holds no data. A
 * thrown non-error (a string, a custom abort reason) is '_OTHER', as the conventions say.
 */
export function errorType(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '_OTHER';
  const { name, code, cause } = error as { name?: unknown; code?: unknown; cause?: unknown };
  // A network error is named by its code (ECONNRESET, UND_ERR_SOCKET): on Node's own errors, or
  // on the cause of fetch's generic TypeError('fetch failed').
  if (name === 'Error' || name === 'TypeError' || name === undefined) {
    const named = codeOf(code) ?? codeOf((cause as { code?: unknown } | null | undefined)?.code);
    if (named) return named;
  }
  return typeof name === 'string' && /^[A-Za-z_$][\w$.]{0,99}$/.test(name) ? name : '_OTHER';
}

function codeOf(code: unknown): string | undefined {
  return typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

/** A free-text attribute value (a reference) with every echo of the given secrets replaced. */
export function safeText(text: string, secrets: readonly string[]): string {
  return scrubText(text, secrets).slice(0, 200);
}

/**
 * Attributes without undefined values. Every name is one of ATTR's (or a `payinout.*` name of
 * this package), none naming a credential or PII field; values are safe where they are built.
 */
export function defined(attributes: Attributes): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const key in attributes) {
    const value = attributes[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}
