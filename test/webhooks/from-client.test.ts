/**
 * createWebhookHandler({ client }): the receiver takes a PaymentClient's token, webhookScheme
 * (and tracer: test/tracing/webhooks.test.ts) without the token becoming a property of the client.
 * Every delivery goes through HTTP to a real node:http receiver.
 */
import { inspect } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  ConfigurationError,
  computeWebhookSignature,
  createWebhookHandler,
  PaymentClient,
  type WebhookEventContext,
} from '../../src/index.js';
import { PaymentClient as NodePaymentClient } from '../../src/node/index.js';
import { delivery, recordingLogger, sampleEvent, serveHandler, TOKEN } from './support.js';

const OTHER_TOKEN = 'tok_live_0a1b2c3d4e5f';

function client(options: Partial<ConstructorParameters<typeof PaymentClient>[0]> = {}) {
  // Nothing listens on port 9: a receiver that called the service would fail its delivery.
  return new PaymentClient({
    username: 'u',
    password: 'p',
    token: TOKEN,
    baseUrl: 'http://127.0.0.1:9',
    ...options,
  });
}

/** A delivery of `event` signed with `token` under `scheme`. */
function signed(scheme: 'json' | 'concat', token = TOKEN, event = sampleEvent()) {
  const ticket = String(event.top_ticket);
  const reference = String(event.top_reference);
  return {
    body: JSON.stringify(event),
    headers: {
      'content-type': 'application/json',
      'x-trx-signature': computeWebhookSignature({ token, ticket, reference }, scheme),
    },
  };
}

async function served(options: Parameters<typeof createWebhookHandler>[0]) {
  const server = await serveHandler(createWebhookHandler(options));
  onTestFinished(server.close);
  return server;
}

/** The ConfigurationError `build` throws (failing the test when it throws none or another). */
function configurationError(build: () => unknown): ConfigurationError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('expected a ConfigurationError');
}

describe('createWebhookHandler({ client })', () => {
  it("accepts what the client's token signs under the client's webhookScheme, and nothing else", async () => {
    const events: string[] = [];
    const receiver = await served({
      client: client({ webhookScheme: 'concat' }),
      onEvent: (event) => void events.push(String(event.top_ticket)),
      logger: recordingLogger(),
    });
    expect((await receiver.post(signed('concat'))).status).toBe(200);
    expect((await receiver.post(signed('json', TOKEN, sampleEvent({ top_ticket: 'T-2' })))).status).toBe(401);
    expect(
      (await receiver.post(signed('concat', OTHER_TOKEN, sampleEvent({ top_ticket: 'T-3' })))).status,
    ).toBe(401);
    expect(events).toEqual(['TCK-0001']);
  });

  it('an explicit scheme wins over the client’s webhookScheme', async () => {
    const receiver = await served({
      client: client({ webhookScheme: 'concat' }),
      scheme: 'json',
      onEvent: () => {},
      logger: recordingLogger(),
    });
    expect((await receiver.post(signed('json'))).status).toBe(200);
    expect((await receiver.post(signed('concat', TOKEN, sampleEvent({ top_ticket: 'T-2' })))).status).toBe(
      401,
    );
  });

  it("a token listing the client's token beside others receives for every merchant", async () => {
    const merchants: WebhookEventContext['merchant'][] = [];
    const receiver = await served({
      client: client(),
      token: { co: TOKEN, pe: OTHER_TOKEN },
      onEvent: (_event, context) => void merchants.push(context.merchant),
    });
    expect((await receiver.post(delivery(sampleEvent(), OTHER_TOKEN))).status).toBe(200);
    expect((await receiver.post(delivery(sampleEvent({ top_ticket: 'T-2' }), TOKEN))).status).toBe(200);
    expect(merchants).toEqual(['pe', 'co']);
  });

  it('does not look deliveries up (that is confirmWith): the unreachable service is never called', async () => {
    const contexts: WebhookEventContext[] = [];
    const receiver = await served({
      client: client(),
      onEvent: (_event, context) => void contexts.push(context),
    });
    expect(await receiver.post(delivery())).toEqual({
      status: 200,
      body: { received: true, result: 'processed' },
    });
    expect(contexts[0]?.transaction).toBeUndefined();
  });

  it("takes the Node entry's PaymentClient too", async () => {
    const node = new NodePaymentClient({
      username: 'u',
      password: 'p',
      token: TOKEN,
      baseUrl: 'http://127.0.0.1:9',
    });
    const receiver = await served({ client: node, onEvent: () => {} });
    expect((await receiver.post(delivery())).status).toBe(200);
  });
});

describe('createWebhookHandler refuses, at creation, a signer it cannot trust', () => {
  it("a token that is not the client's", () => {
    const error = configurationError(() =>
      createWebhookHandler({ client: client(), token: OTHER_TOKEN, onEvent: () => {} }),
    );
    expect(error.message).toMatch(/token is not the token of client.*refused \(401\)/);
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(OTHER_TOKEN);
    configurationError(() =>
      createWebhookHandler({ client: client(), token: [OTHER_TOKEN, 'tok-x'], onEvent: () => {} }),
    );
  });

  it('neither client nor token', () => {
    const error = configurationError(() => createWebhookHandler({ onEvent: () => {} } as never));
    expect(error.message).toContain('needs { token }');
    expect(error.message).toContain('or { client }');
  });

  it('a client that is no PaymentClient, or one of another copy of payinout', () => {
    const lookalike = { transactions: { get: async () => ({}) } };
    expect(
      configurationError(() => createWebhookHandler({ client: lookalike as never, onEvent: () => {} }))
        .message,
    ).toMatch(/client must be a PaymentClient.*or leave client out and give token/);
    const otherCopy = { webhooks: { verify: () => ({}) } };
    expect(
      configurationError(() => createWebhookHandler({ client: otherCopy as never, onEvent: () => {} }))
        .message,
    ).toMatch(/another copy of payinout/);
  });

  it('a misspelt option beside client is named', () => {
    const error = configurationError(() =>
      createWebhookHandler({ client: client(), onEvent: () => {}, clinet: 1 } as never),
    );
    expect(error.message).toContain('clinet');
  });
});

describe('the client carries no receiver and no readable token', () => {
  it('client.webhooks has verify only', () => {
    const webhooks = client().webhooks;
    expect('createHandler' in webhooks).toBe(false);
    expect(typeof webhooks.verify).toBe('function');
  });

  it('neither the client nor its webhooks resource shows the token', () => {
    const built = client({ webhookScheme: 'concat' });
    for (const subject of [built, built.webhooks]) {
      for (const view of [inspect(subject, { depth: 10, showHidden: true }), JSON.stringify(subject) ?? '']) {
        expect(view).not.toContain(TOKEN);
      }
      expect(Object.getOwnPropertySymbols(subject).map(String)).not.toContain(
        expect.stringMatching(/token|signer/i),
      );
    }
  });
});
