/**
 * What every span of the wing shares: safe attribute values (an error named by its class, a
 * free text scrubbed of credentials and PII, no undefined values) and the few calls on a Span
 * whose fault must not cost more than the span (a throwing `isRecording` reads as recording; a
 * span is ended even when setting its closing attributes threw).
 */
import { drop } from '../core/dispatch.js';
import type { Ending, Proceed } from '../core/observer.js';
import { scrubText } from '../core/redact.js';
import {
  ATTR,
  type Attributes,
  type AttributeValue,
  type Span,
  type SpanOptions,
  STATUS_ERROR,
  type Tracer,
} from './tracer.js';

/**
 * A span around work that is not one HTTP call (a batch, one of its items, a webhook delivery),
 * active while the work runs; `describe` sets its closing attributes from how the work ended
 * (a rejection marks it failed first), and the span is ended once, when the work settles.
 */
export function traceWork(
  tracer: Tracer,
  name: string,
  options: SpanOptions,
  proceed: Proceed,
  describe: (span: Span, value: unknown) => void,
): unknown {
  const safe = { ...options, attributes: defined(options.attributes ?? {}) };
  return tracer.startActiveSpan(name, safe, (given) => {
    const span = guardedSpan(given);
    return proceed({
      end: (ending: Ending) =>
        closeSpan(span, () => (ending.ok ? describe(span, ending.value) : fail(span, ending.error))),
    });
  });
}

/**
 * The tracer's span as the wing calls it: each method contained on its own (the seam's `drop`,
 * core/dispatch.ts), so one that throws, returns a rejected promise or never settles costs its
 * own effect only (a throwing `setAttribute` still lets the span end), and nothing waits for it.
 */
export function guardedSpan(span: Span): Span {
  return new GuardedSpan(span);
}

class GuardedSpan implements Span {
  constructor(readonly span: Span) {}

  isRecording(): boolean {
    return recording(this.span);
  }

  setAttribute(key: string, value: AttributeValue): void {
    try {
      drop(this.span.setAttribute(key, value));
    } catch {}
  }

  addEvent(name: string, attributes?: Attributes): void {
    try {
      drop(this.span.addEvent(name, attributes));
    } catch {}
  }

  setStatus(status: { code: number; message?: string }): void {
    try {
      drop(this.span.setStatus(status));
    } catch {}
  }

  end(): void {
    try {
      drop(this.span.end());
    } catch {}
  }
}

/** False only for a span that says so (tracing off); a throwing or odd `isRecording` reads as recording. */
export function recording(span: Span): boolean {
  try {
    const answer = span.isRecording?.();
    drop(answer);
    return answer !== false;
  } catch {
    return true;
  }
}

/** Sets a span's closing attributes, then ends it even if setting them threw. */
export function closeSpan(span: Span, describe: () => void): void {
  try {
    describe();
  } finally {
    span.end();
  }
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
