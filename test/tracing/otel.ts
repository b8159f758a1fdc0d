/**
 * A real OpenTelemetry SDK for the tracing suites: a BasicTracerProvider exporting to an
 * InMemorySpanExporter, with the AsyncLocalStorage context manager that the Node SDK registers,
 * so parentage is what a merchant's collector would see.
 */
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

// Once per test file (worker): the global context manager, as NodeSDK.start() installs it.
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

export { SpanKind, SpanStatusCode };

export function otel() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const tracer = provider.getTracer('payinout-test');
  const spans = () => exporter.getFinishedSpans();
  return {
    tracer,
    spans,
    /** The finished spans named `name`. */
    named: (name: string) => spans().filter((span) => span.name === name),
    /** The spans whose parent is `parent`. */
    childrenOf: (parent: ReadableSpan) =>
      spans().filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId),
  };
}

/** Everything a collector receives of a span, as one text to scan for secrets. */
export function exported(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
      links: span.links,
    })),
  );
}

/** Which of `secrets` (credentials, PII, addresses) appear in the exported spans. */
export function leaks(spans: readonly ReadableSpan[], secrets: readonly string[]): string[] {
  const text = exported(spans).toLowerCase();
  return secrets.filter((secret) => text.includes(secret.toLowerCase()));
}
