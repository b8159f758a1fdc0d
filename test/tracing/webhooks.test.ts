/**
 * Webhook tracing through HTTP (a real node:http receiver): one SERVER span `payinout.webhook`
 * per delivery with its status code and verdict, for every verdict; onEvent runs inside it so
 * the merchant's spans (and a confirmWith lookup) nest under it; nothing secret in any span.
 */
import { describe, it } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  PaymentClient,
  WebhookDeduplicator,
  type WebhookHandlerOptions,
} from '../../src/index.js';
import { CREDENTIALS, startFaultServer } from '../faults/server.js';
import { delivery, PII, recordingLogger, sampleEvent, serveHandler, TOKEN } from '../webhooks/support.js';
import { leaks, otel, SpanKind, SpanStatusCode } from './otel.js';

type Trace = ReturnType<typeof otel>;

async function receiver(
  trace: Trace,
  options: Partial<WebhookHandlerOptions>,
  onTestFinished: (fn: () => Promise<void>) => void,
) {
  const handler = createWebhookHandler({
    token: TOKEN,
    onEvent: () => {},
    logger: recordingLogger(),
    tracer: trace.tracer,
    ...options,
  } as WebhookHandlerOptions);
  const served = await serveHandler(handler);
  onTestFinished(served.close);
  return served;
}

/** The one delivery span, with the attributes every test reads. */
function deliverySpan(trace: Trace) {
  const spans = trace.named('payinout.webhook');
  if (spans.length !== 1) throw new Error(`expected one payinout.webhook span, got ${spans.length}`);
  return spans[0]!;
}

const failingStore: DedupeStore = {
  setIfAbsent: () => Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6390')),
  get: () => Promise.reject(new Error('ECONNREFUSED')),
  set: () => Promise.reject(new Error('ECONNREFUSED')),
  deleteIfEquals: () => Promise.reject(new Error('ECONNREFUSED')),
};

describe('a SERVER span per delivery, for every verdict', () => {
  it('processed: 200, kind SERVER, status UNSET, the event named by ticket and status', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    const served = await receiver(trace, {}, onTestFinished);
    expect((await served.post(delivery())).status).toBe(200);
    const span = deliverySpan(trace);
    expect(span.kind).toBe(SpanKind.SERVER);
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 200,
      'payinout.webhook.verdict': 'processed',
      'payinout.webhook.ticket': 'TCK-0001',
      'payinout.webhook.event_status': 'APPROVED',
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('duplicate: the second delivery of one event is its own span, verdict duplicate', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    const served = await receiver(trace, {}, onTestFinished);
    await served.post(delivery());
    await served.post(delivery());
    const verdicts = trace
      .named('payinout.webhook')
      .map((span) => span.attributes['payinout.webhook.verdict']);
    expect(verdicts).toEqual(['processed', 'duplicate']);
  });

  it('in_flight: 409 while another request holds the claim, not an error', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const served = await receiver(trace, { onEvent: () => held }, onTestFinished);
    const first = served.post(delivery());
    // The first delivery's claim is taken once onEvent runs; poll until the second sees it.
    let second = await served.post(delivery());
    while (second.status !== 409) second = await served.post(delivery());
    release();
    expect((await first).status).toBe(200);
    const span = trace
      .named('payinout.webhook')
      .find((s) => s.attributes['payinout.webhook.verdict'] === 'in_flight')!;
    expect(span.attributes['http.response.status_code']).toBe(409);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it.for([
    ['a forged signature', () => delivery(sampleEvent(), 'not-the-token')],
    ['no signature', () => ({ body: delivery().body, headers: { 'content-type': 'application/json' } })],
  ] as const)(
    'invalid_signature: %s → 401, status ERROR, no event attributes',
    async ([, make], { expect, onTestFinished }) => {
      const trace = otel();
      const served = await receiver(trace, {}, onTestFinished);
      expect((await served.post(make())).status).toBe(401);
      const span = deliverySpan(trace);
      expect(span.attributes).toMatchObject({
        'http.response.status_code': 401,
        'payinout.webhook.verdict': 'invalid_signature',
        'error.type': 'WebhookVerificationError',
      });
      // Nothing of an unverified body is trusted into the span.
      expect(span.attributes['payinout.webhook.ticket']).toBeUndefined();
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    },
  );

  it('parsed_body: a body parser ran first → 400', async ({ expect, onTestFinished }) => {
    const trace = otel();
    const handler = createWebhookHandler({
      token: TOKEN,
      onEvent: () => {},
      logger: recordingLogger(),
      tracer: trace.tracer,
    });
    const { createServer } = await import('node:http');
    // What a global express.json() leaves: the stream consumed, req.body an object.
    const server = createServer(async (req, res) => {
      let text = '';
      for await (const chunk of req) text += chunk;
      Object.assign(req, { body: JSON.parse(text) });
      await handler.node(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const d = delivery();
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: d.body,
      headers: d.headers,
    });
    expect(response.status).toBe(400);
    expect(deliverySpan(trace).attributes).toMatchObject({
      'http.response.status_code': 400,
      'payinout.webhook.verdict': 'parsed_body',
    });
  });

  it('not_confirmed: the lookup shows another status → 409, ERROR; the lookup is a child CLIENT span', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    const service = await startFaultServer({
      seed: [{ reference: 'order-1001', amount: 150000, currency: 'COP', status: 'REJECTED' }],
    });
    onTestFinished(service.close);
    const ticket = service.transactions[0]!.ticket;
    const client = service.client({ tracer: trace.tracer });
    const ran: string[] = [];
    const served = await receiver(
      trace,
      { confirmWith: client, onEvent: (event) => void ran.push(event.top_ticket) },
      onTestFinished,
    );
    expect((await served.post(delivery(sampleEvent({ top_ticket: ticket })))).status).toBe(409);
    expect(ran).toEqual([]);
    const span = deliverySpan(trace);
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 409,
      'payinout.webhook.verdict': 'not_confirmed',
      'error.type': 'WebhookNotConfirmedError',
    });
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    const [lookup] = trace.childrenOf(span);
    expect(lookup!.name).toBe('GET /api/v1/transaction/{id}');
    expect(lookup!.kind).toBe(SpanKind.CLIENT);
  });

  it('store_unavailable: the dedupe store fails → 503', async ({ expect, onTestFinished }) => {
    const trace = otel();
    const dedupe = new WebhookDeduplicator({ store: failingStore });
    const served = await receiver(trace, { dedupe }, onTestFinished);
    expect((await served.post(delivery())).status).toBe(503);
    expect(deliverySpan(trace).attributes).toMatchObject({
      'http.response.status_code': 503,
      'payinout.webhook.verdict': 'store_unavailable',
    });
  });

  it('handler_failed: onEvent throws → 500, error.type its class, never its message', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    class LedgerError extends Error {
      override name = 'LedgerError';
    }
    const onEvent = () => {
      throw new LedgerError(`db down while crediting ${PII.full_name}`);
    };
    const served = await receiver(trace, { onEvent }, onTestFinished);
    expect((await served.post(delivery())).status).toBe(500);
    const span = deliverySpan(trace);
    expect(span.attributes).toMatchObject({
      'http.response.status_code': 500,
      'payinout.webhook.verdict': 'handler_failed',
      'error.type': 'LedgerError',
    });
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'handler_failed' });
    expect(leaks(trace.spans(), ['db down', PII.full_name])).toEqual([]);
  });
});

describe('onEvent runs inside the delivery span', () => {
  it("the merchant's own spans are children of payinout.webhook, in the same trace", async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    const onEvent = async () => {
      await trace.tracer.startActiveSpan('credit order', async (span) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        span.end();
      });
    };
    const served = await receiver(trace, { onEvent }, onTestFinished);
    await served.post(delivery());
    const webhook = deliverySpan(trace);
    const [mine] = trace.named('credit order');
    expect(mine!.parentSpanContext?.spanId).toBe(webhook.spanContext().spanId);
    expect(mine!.spanContext().traceId).toBe(webhook.spanContext().traceId);
  });

  it('with several tokens the span names the merchant (its key), never the token', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    const token = { co: 'tok-co-111111', pe: 'tok-pe-222222', mx: 'tok-mx-333333' };
    const served = await receiver(trace, { token }, onTestFinished);
    await served.post(delivery(sampleEvent(), token.pe));
    expect(deliverySpan(trace).attributes['payinout.webhook.merchant']).toBe('pe');
    expect(leaks(trace.spans(), Object.values(token))).toEqual([]);
  });
});

describe("createWebhookHandler({ client }) uses the client's tracer", () => {
  const clientWith = (tracer: Trace['tracer']) =>
    new PaymentClient({ username: 'u', password: 'p', token: TOKEN, baseUrl: 'http://127.0.0.1:9', tracer });

  it('a delivery to it is a payinout.webhook span', async ({ expect, onTestFinished }) => {
    const trace = otel();
    const handler = createWebhookHandler({
      client: clientWith(trace.tracer),
      onEvent: () => {},
      logger: recordingLogger(),
    });
    const served = await serveHandler(handler);
    onTestFinished(served.close);
    expect((await served.post(delivery())).status).toBe(200);
    expect(deliverySpan(trace).attributes['payinout.webhook.verdict']).toBe('processed');
  });

  it("an explicit tracer wins: the client's records nothing", async ({ expect, onTestFinished }) => {
    const clients = otel();
    const own = otel();
    const handler = createWebhookHandler({
      client: clientWith(clients.tracer),
      tracer: own.tracer,
      onEvent: () => {},
      logger: recordingLogger(),
    });
    const served = await serveHandler(handler);
    onTestFinished(served.close);
    expect((await served.post(delivery())).status).toBe(200);
    expect(deliverySpan(own).attributes['payinout.webhook.verdict']).toBe('processed');
    expect(clients.spans()).toEqual([]);
  });
});

describe('nothing secret in any exported span', () => {
  it('token, customer PII, signatures and the client credentials appear nowhere', async ({
    expect,
    onTestFinished,
  }) => {
    const trace = otel();
    const service = await startFaultServer({
      seed: [{ reference: 'order-1001', amount: 150000, currency: 'COP', status: 'APPROVED' }],
    });
    onTestFinished(service.close);
    const ticket = service.transactions[0]!.ticket;
    const client = service.client({ tracer: trace.tracer });
    let fail = true;
    const served = await receiver(
      trace,
      {
        confirmWith: client,
        onEvent: () => {
          if (fail) {
            fail = false;
            throw new Error(`failed for ${PII.email}`);
          }
        },
      },
      onTestFinished,
    );
    const genuine = delivery(sampleEvent({ top_ticket: ticket }));
    await served.post(genuine);
    await served.post(genuine);
    await served.post(genuine);
    await served.post(delivery(sampleEvent(), 'wrong-token'));
    const secrets = [
      TOKEN,
      ...Object.values(PII),
      genuine.headers['x-trx-signature'],
      CREDENTIALS.password,
      CREDENTIALS.token,
      '://',
    ];
    expect(trace.spans().length).toBeGreaterThanOrEqual(7);
    expect(leaks(trace.spans(), secrets)).toEqual([]);
  });
});
