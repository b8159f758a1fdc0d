/**
 * The spans of client calls, as an observer of the transport's events (core/observer.ts): one
 * CLIENT span per call named `{METHOD} {url.template}`, an event per HTTP attempt, and a
 * reconciliation lookup as a child span of its create. A span gets a URL template, never a path
 * with an id or a full URL; a reference is scrubbed of the request's credentials and PII like a
 * log line (redact.ts); an error is named by its class, never by its message.
 */
import { drop } from '../core/dispatch.js';
import type { AttemptEvent, CallSite, Ending, ObserverScope, Proceed } from '../core/observer.js';
import { closeSpan, defined, errorType, fail, guardedSpan, recording, safeText } from './span.js';
import {
  ATTR,
  type AttributeValue,
  SPAN_KIND,
  type Span,
  type SpanOptions,
  type TraceOutcome,
  type Tracer,
} from './tracer.js';

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

/** The `call` hook: a CLIENT span active while the call runs (spans started within nest). */
export function traceCall(tracer: Tracer, origin: Origin, site: CallSite, proceed: Proceed): unknown {
  const start = startOf(site, origin);
  return tracer.startActiveSpan(start.name, optionsOf(start), (span) =>
    proceed(scopeOf(span, tracer, origin)),
  );
}

/** A recorded span's scope; a span nobody records (tracing off) is ended at once and hears nothing. */
function scopeOf(span: Span, tracer: Tracer, origin: Origin, parent?: CallSpan): CallSpan | undefined {
  if (recording(span)) return new CallSpan(guardedSpan(span), origin, tracer, parent);
  try {
    drop(span.end());
  } catch {
    // A span that cannot end costs itself only (as contain(), without a closure per call).
  }
  return undefined;
}

/** One call's span: counts its HTTP attempts, adds an event per attempt, ends with the contract's attributes. */
class CallSpan implements ObserverScope {
  /** HTTP attempts of this span, a lookup's included for a create. */
  attempts = 0;
  lastStatus: number | undefined;

  constructor(
    readonly span: Span,
    readonly origin: Origin,
    readonly tracer: Tracer,
    /** The create whose lookup this is: its attempts and last status count this span's too. */
    readonly parent?: CallSpan,
  ) {}

  attempt(event: AttemptEvent): void {
    this.#count(event.status);
    this.span.addEvent(
      ATTR.attempt,
      defined({
        [ATTR.attempt]: event.attempt,
        [ATTR.status]: event.status,
        [ATTR.errorType]: event.failure === undefined ? undefined : errorType(event.failure),
        [ATTR.durationMs]: Math.round(event.durationMs),
      }),
    );
  }

  #count(status: number | undefined): void {
    this.attempts++;
    if (status !== undefined) this.lastStatus = status;
    if (this.parent) this.parent.#count(status);
  }

  /** The reference a create is known by, scrubbed of the request's credentials and PII. */
  reference(key: string, secrets: () => readonly string[]): void {
    this.span.setAttribute(ATTR.reference, safeText(key, secrets()));
  }

  /** A reconciliation lookup, as a child span of this call's. */
  lookup(site: CallSite, proceed: Proceed): unknown {
    const start = startOf(site, this.origin);
    return this.tracer.startActiveSpan(start.name, optionsOf(start), (span) =>
      proceed(scopeOf(span, this.tracer, this.origin, this)),
    );
  }

  end(ending: Ending): void {
    closeSpan(this.span, () => (ending.ok ? this.#succeeded(ending.value) : this.#failed(ending.error)));
  }

  #succeeded(value: unknown): void {
    const recovered = (value as { recovered?: unknown } | null)?.recovered === true;
    this.#describe(recovered ? 'recovered' : 'ok');
  }

  #failed(error: unknown): void {
    const unknown = (error as { outcome?: unknown } | null)?.outcome === 'unknown';
    // A create refused after its lookups ended with the refusal's status, not the last lookup's
    // (a 422 resend followed by a 404 check is a 422 failure): the span agrees with error.type.
    const refused = (error as { status?: unknown } | null)?.status;
    if (!unknown && typeof refused === 'number') this.lastStatus = refused;
    fail(this.span, error);
    this.#describe(unknown ? 'unknown' : 'failed');
  }

  #describe(outcome: TraceOutcome): void {
    if (this.lastStatus !== undefined) this.span.setAttribute(ATTR.status, this.lastStatus);
    this.span.setAttribute(ATTR.attempts, this.attempts);
    this.span.setAttribute(ATTR.outcome, outcome);
  }
}

/** Span names and start attributes per origin, method and template, built once (a client has a handful). */
type Start = { name: string; attributes: Record<string, AttributeValue> };
const starts = new WeakMap<Origin, Map<string, Map<string | undefined, Start>>>();

function startOf(site: CallSite, origin: Origin): Start {
  return starts.get(origin)?.get(site.method)?.get(site.template) ?? remember(site, origin);
}

function remember(site: CallSite, origin: Origin): Start {
  const byMethod = entry(starts, origin, () => new Map<string, Map<string | undefined, Start>>());
  const byTemplate = entry(byMethod, site.method, () => new Map<string | undefined, Start>());
  // The operation is the template's in the table; a call outside it is bounded all the same.
  if (byTemplate.size > 200) byTemplate.clear();
  return entry(byTemplate, site.template, () => startFor(site, origin));
}

/** A fresh copy each time: a tracer may keep or change what it is given. */
function optionsOf(start: Start): SpanOptions {
  return { kind: SPAN_KIND.CLIENT, attributes: { ...start.attributes } };
}

/** The map's value for `key`, made and kept on first use. */
function entry<K, V>(
  map: { get(key: K): V | undefined; set(key: K, value: V): unknown },
  key: K,
  make: () => V,
): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

function startFor(site: CallSite, origin: Origin): Start {
  const template = site.template === undefined ? undefined : spanTemplate(site.template);
  const attributes = defined({
    [ATTR.method]: site.method,
    [ATTR.template]: template,
    [ATTR.address]: origin.address,
    [ATTR.port]: origin.port,
    [ATTR.operation]: site.operation,
  });
  return { name: template ? `${site.method} ${template}` : site.method, attributes };
}
