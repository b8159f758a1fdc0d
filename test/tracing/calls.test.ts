/**
 * Client tracing through the HTTP boundary (a real node:http service double, both senders):
 * one CLIENT span per call with the contract's attributes and an event per attempt, a
 * reconciliation lookup as a child of its create, createMany as a parent of one span per item,
 * and nothing secret in any exported span.
 */

import { ProxyTracerProvider } from '@opentelemetry/api';
import { describe, it } from 'vitest';
import { customer, nextReference, payinParams, payoutParams } from '../faults/methods.js';
import { CREDENTIALS, startFaultServer } from '../faults/server.js';
import { leaks, otel, SpanKind, SpanStatusCode } from './otel.js';

const basic = Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64');
/** What must never reach a collector: credentials, customer PII, the base URL. */
const SECRETS = [
  CREDENTIALS.password,
  CREDENTIALS.token,
  basic,
  customer.legal_doc,
  customer.email,
  customer.phone_number,
  customer.full_name,
  'Pérez',
  '12345678901',
  '://',
  '/root',
];

async function setup(onTestFinished: (fn: () => Promise<void>) => void) {
  const server = await startFaultServer();
  onTestFinished(() => server.close());
  const trace = otel();
  const client = server.client({ tracer: trace.tracer });
  const port = Number(new URL(server.baseUrl).port);
  return { server, trace, client, port };
}

describe('one CLIENT span per call', () => {
  it('a create: named by its template, with method, server, status, operation, attempts, outcome and reference', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, port } = await setup(onTestFinished);
    const reference = nextReference('span-ok');
    await client.payin.create(payinParams(reference));
    const [span, ...others] = trace.spans();
    expect(others).toEqual([]);
    expect(span!.name).toBe('POST /api/v2/payin');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.attributes).toEqual({
      'http.request.method': 'POST',
      'url.template': '/api/v2/payin',
      'server.address': '127.0.0.1',
      'server.port': port,
      'http.response.status_code': 200,
      'payinout.operation': 'payin.create',
      'payinout.attempts': 1,
      'payinout.outcome': 'ok',
      'payinout.reference': reference,
    });
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    expect(span!.events.map((event) => event.name)).toEqual(['payinout.attempt']);
    expect(span!.events[0]!.attributes).toMatchObject({
      'payinout.attempt': 1,
      'http.response.status_code': 200,
    });
  });

  it('a lookup is named by the template, never by the id it looks up', async ({ expect, onTestFinished }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const reference = nextReference('span-get');
    await server.client().payout.create(payoutParams(reference));
    await client.transactions.get(reference);
    const [span] = trace.spans();
    expect(span!.name).toBe('GET /api/v1/transaction/{id}');
    expect(span!.attributes['url.template']).toBe('/api/v1/transaction/{id}');
    expect(span!.attributes['payinout.operation']).toBe('transactions.get');
    expect(span!.attributes['payinout.reference']).toBeUndefined();
    expect(JSON.stringify(trace.spans().map((s) => [s.name, s.attributes]))).not.toContain(reference);
  });

  it('503s: an event per attempt, the last status, outcome failed, error.type and status ERROR', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const fault = { method: 'GET' as const, fault: { kind: 'status' as const, status: 503 } };
    server.queue(fault, fault, fault);
    await expect(client.merchant.getBalance({ maxRetries: 2 })).rejects.toThrow();
    const [span] = trace.spans();
    expect(span!.name).toBe('GET /api/v1/merchant/balance');
    expect(span!.attributes).toMatchObject({
      'http.response.status_code': 503,
      'payinout.attempts': 3,
      'payinout.outcome': 'failed',
      'error.type': 'ServerError',
    });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
    expect(span!.events.map((event) => event.attributes?.['payinout.attempt'])).toEqual([1, 2, 3]);
    expect(span!.events.every((event) => event.attributes?.['http.response.status_code'] === 503)).toBe(true);
  });

  it('a 503 then a 200: one span, two attempt events, outcome ok', async ({ expect, onTestFinished }) => {
    const { trace, client, server } = await setup(onTestFinished);
    server.queue({ method: 'GET', fault: { kind: 'status', status: 503 } });
    await client.merchant.getProfile();
    const [span] = trace.spans();
    expect(span!.attributes).toMatchObject({
      'http.response.status_code': 200,
      'payinout.attempts': 2,
      'payinout.outcome': 'ok',
    });
    expect(span!.attributes['error.type']).toBeUndefined();
    expect(span!.events.map((event) => event.attributes?.['http.response.status_code'])).toEqual([503, 200]);
  });

  it('a 404: outcome failed, NotFoundError, status 404, one attempt', async ({ expect, onTestFinished }) => {
    const { trace, client } = await setup(onTestFinished);
    await expect(client.transactions.get('no-such-ticket')).rejects.toThrow();
    const [span] = trace.spans();
    expect(span!.attributes).toMatchObject({
      'http.response.status_code': 404,
      'payinout.attempts': 1,
      'payinout.outcome': 'failed',
      'error.type': 'NotFoundError',
    });
    expect(span!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('no answer at all: the attempt event names the network failure, the span the typed error', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    server.queue({ method: 'GET', fault: { kind: 'drop' } });
    await expect(client.merchant.getBalance({ maxRetries: 0 })).rejects.toThrow();
    const [span] = trace.spans();
    expect(span!.attributes['error.type']).toBe('ConnectionError');
    expect(span!.attributes['http.response.status_code']).toBeUndefined();
    expect(span!.events[0]!.attributes?.['error.type']).toMatch(/^[A-Z_]+$|Error$/);
  });

  it('a timeout: the attempt event says TimeoutError, and so does the span', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    server.queue({ method: 'GET', fault: { kind: 'slow-headers', ms: 1_000 } });
    await expect(client.merchant.getProfile({ timeoutMs: 100, maxRetries: 0 })).rejects.toThrow();
    const [span] = trace.spans();
    expect(span!.attributes['error.type']).toBe('TimeoutError');
    expect(span!.events[0]!.attributes).toMatchObject({
      'payinout.attempt': 1,
      'error.type': 'TimeoutError',
    });
  });

  it('a request refused before sending: a failed span with no attempt', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client } = await setup(onTestFinished);
    await expect(client.payin.create({ ...payinParams('bad'), amount: -1 })).rejects.toThrow();
    const [span] = trace.spans();
    expect(span!.attributes).toMatchObject({
      'payinout.attempts': 0,
      'payinout.outcome': 'failed',
      'error.type': 'RequestValidationError',
    });
    expect(span!.events).toEqual([]);
  });
});

describe('reconciliation', () => {
  it('a lost answer: the create is recovered, its lookup a child CLIENT span', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const reference = nextReference('span-lost');
    server.queue({ method: 'POST', fault: { kind: 'drop-after-commit' } });
    const result = await client.payout.create(payoutParams(reference));
    expect(result.recovered).toBe(true);
    const [create] = trace.named('POST /api/v1/payout');
    const [lookup] = trace.named('GET /api/v1/transaction/{id}');
    expect(trace.spans()).toHaveLength(2);
    expect(lookup!.parentSpanContext?.spanId).toBe(create!.spanContext().spanId);
    expect(lookup!.spanContext().traceId).toBe(create!.spanContext().traceId);
    expect(lookup!.kind).toBe(SpanKind.CLIENT);
    expect(create!.attributes).toMatchObject({
      'payinout.operation': 'payout.create',
      'payinout.outcome': 'recovered',
      'payinout.attempts': 2,
      'payinout.reference': reference,
      'http.response.status_code': 200,
    });
    expect(lookup!.attributes).toMatchObject({
      'payinout.operation': 'transactions.get',
      'payinout.outcome': 'ok',
      'payinout.attempts': 1,
      'http.response.status_code': 200,
    });
    // The send's attempt has no status (the answer was lost); the lookup's attempt is its own event.
    expect(create!.events).toHaveLength(1);
    expect(create!.events[0]!.attributes?.['http.response.status_code']).toBeUndefined();
    expect(create!.events[0]!.attributes?.['error.type']).toBeDefined();
    expect(lookup!.events[0]!.attributes).toMatchObject({
      'payinout.attempt': 2,
      'http.response.status_code': 200,
    });
  });

  it('a lost answer that was never committed: lookup 404 (child), resend (event), outcome ok', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const reference = nextReference('span-resend');
    server.queue({ method: 'POST', fault: { kind: 'drop' } });
    await client.payin.create(payinParams(reference));
    const [create] = trace.named('POST /api/v2/payin');
    const [lookup] = trace.named('GET /api/v1/transaction/{id}');
    expect(lookup!.parentSpanContext?.spanId).toBe(create!.spanContext().spanId);
    expect(lookup!.attributes).toMatchObject({ 'payinout.outcome': 'failed', 'error.type': 'NotFoundError' });
    expect(create!.attributes).toMatchObject({ 'payinout.outcome': 'ok', 'payinout.attempts': 3 });
    expect(create!.events.map((event) => event.attributes?.['payinout.attempt'])).toEqual([1, 3]);
  });

  it('a resend refused after a lost answer: the span shows the refusal, not the lookup after it', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const reference = nextReference('span-refused');
    server.queue(
      { method: 'POST', fault: { kind: 'drop' } },
      { method: 'POST', fault: { kind: 'status', status: 422, error: 'INSUFFICIENT_FUNDS' } },
    );
    const error = await client.payout.create(payoutParams(reference)).catch((e: unknown) => e);
    expect((error as { status?: number }).status).toBe(422);
    const [create] = trace.named('POST /api/v1/payout');
    // Both lookups (after the lost answer, and after the refusal) found nothing: 404 each.
    expect(trace.named('GET /api/v1/transaction/{id}').length).toBeGreaterThanOrEqual(1);
    expect(create!.attributes).toMatchObject({
      'payinout.outcome': 'failed',
      'error.type': 'UnprocessableEntityError',
      'http.response.status_code': 422,
    });
  });

  it('an outcome nobody can prove is unknown', async ({ expect, onTestFinished }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const reference = nextReference('span-unknown');
    server.queue(
      { method: 'POST', fault: { kind: 'drop-after-commit' } },
      { method: 'GET', fault: { kind: 'status', status: 503 } },
      { method: 'GET', fault: { kind: 'status', status: 503 } },
      { method: 'GET', fault: { kind: 'status', status: 503 } },
    );
    const error = await client.payout.create(payoutParams(reference)).catch((e: unknown) => e);
    expect((error as { outcome?: string }).outcome).toBe('unknown');
    const [create] = trace.named('POST /api/v1/payout');
    expect(create!.attributes).toMatchObject({
      'payinout.outcome': 'unknown',
      'error.type': 'ConnectionError',
    });
    expect(create!.status.code).toBe(SpanStatusCode.ERROR);
  });
});

describe('createMany', () => {
  it('one batch span, one child span per item, each item parent of its own calls', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    const existing = nextReference('batch-old');
    await server.client().payout.create(payoutParams(existing));
    const fresh = [nextReference('batch-a'), nextReference('batch-b')];
    const results = await client.payout.createMany([...fresh, existing].map(payoutParams), {
      concurrency: 2,
    });
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'recovered']);
    const [batch] = trace.named('payout.createMany');
    expect(batch!.parentSpanContext).toBeUndefined();
    expect(batch!.attributes).toMatchObject({
      'payinout.batch.total': 3,
      'payinout.batch.created': 2,
      'payinout.batch.recovered': 1,
    });
    const items = trace.childrenOf(batch!);
    expect(items.map((item) => item.name)).toEqual(Array(3).fill('payout.createMany item'));
    const byReference = new Map(items.map((item) => [item.attributes['payinout.reference'], item]));
    expect(byReference.get(existing)!.attributes['payinout.outcome']).toBe('recovered');
    for (const reference of fresh) {
      const item = byReference.get(reference)!;
      expect(item.attributes['payinout.outcome']).toBe('ok');
      const calls = trace.childrenOf(item).map((call) => call.name);
      expect(calls.sort()).toEqual(['GET /api/v1/transaction/{id}', 'POST /api/v1/payout']);
    }
    expect(trace.childrenOf(byReference.get(existing)!).map((call) => call.name)).toEqual([
      'GET /api/v1/transaction/{id}',
    ]);
  });
});

describe('nothing secret in any exported span', () => {
  it('credentials, customer PII and the base URL appear nowhere, failures included', async ({
    expect,
    onTestFinished,
  }) => {
    const { trace, client, server } = await setup(onTestFinished);
    server.queue(
      { method: 'POST', fault: { kind: 'drop-after-commit' } },
      { method: 'GET', fault: { kind: 'status', status: 503 } },
    );
    await client.payout.create(payoutParams(nextReference('scan-a')));
    await client.payin.create(payinParams(nextReference('scan-b')));
    await client.payin.create({ ...payinParams('scan-c'), amount: -5 }).catch(() => {});
    await client.transactions.get('missing').catch(() => {});
    await client.payout.createMany([payoutParams(nextReference('scan-d'))]);
    // A merchant who used the customer's e-mail as the reference: it is scrubbed like a log line.
    await client.payin.create(payinParams(customer.email)).catch(() => {});
    expect(trace.spans().length).toBeGreaterThan(8);
    expect(leaks(trace.spans(), SECRETS)).toEqual([]);
  });
});

describe('tracing off or broken never changes a call', () => {
  it("OpenTelemetry's no-op tracer (no SDK started): results and errors as without a tracer", async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const client = server.client({ tracer: new ProxyTracerProvider().getTracer('payinout') });
    const reference = nextReference('noop');
    server.queue({ method: 'POST', fault: { kind: 'drop-after-commit' } });
    const result = await client.payout.create(payoutParams(reference));
    expect(result.recovered).toBe(true);
    expect(result.lastResponse.attempts).toBe(2);
    await expect(client.transactions.get('absent')).rejects.toMatchObject({ status: 404 });
  });

  it('a tracer that throws when asked for a span: the call runs untraced', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const tracer = {
      startActiveSpan: () => {
        throw new Error('exporter misconfigured');
      },
    };
    const balance = await server.client({ tracer }).merchant.getBalance();
    expect(balance.currency).toBe('COP');
  });
});
