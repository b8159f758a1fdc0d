/**
 * The usual way a webhook body reaches the handler already parsed: a global
 * `app.use(express.json())` registered before the route. The 400 `parsed_body` answer (and the
 * error of `verifyWebhook`) names that cause and the fix, with the guide's full address, in a
 * real Express 5 app on 127.0.0.1.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, verifyWebhook, WebhookVerificationError } from '../../src/index.js';
import { buildWebhookDelivery } from '../../src/testing/index.js';
import { sampleEvent, TOKEN } from './support.js';

const GUIDE =
  'https://github.com/payinout/payinout/blob/main/docs/webhooks.md#raw-bodies-framework-by-framework';
const received: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use(express.json()); // the usual mistake: global, before the webhook route
  const handler = createWebhookHandler({ token: TOKEN, onEvent: (e) => void received.push(e.top_ticket) });
  app.post('/webhooks', express.raw({ type: '*/*' }), handler.node);
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('parsed_body advice names the usual cause', () => {
  it('a global express.json() before the route: 400 parsed_body saying so, nothing handed on', async () => {
    const delivery = buildWebhookDelivery(sampleEvent({ top_ticket: 'PB-1' }) as never, { token: TOKEN });
    const response = await fetch(`${base}/webhooks`, {
      method: 'POST',
      body: delivery.body,
      headers: delivery.headers,
    });
    const body = (await response.json()) as { error: string; message: string };
    expect(response.status).toBe(400);
    expect(body.error).toBe('parsed_body');
    expect(body.message).toContain('app.use(express.json())');
    expect(body.message).toMatch(/before the webhook route/);
    expect(body.message).toContain(GUIDE);
    expect(received).toEqual([]);
  });

  it('verifyWebhook given the parsed object says the same', () => {
    const delivery = buildWebhookDelivery(sampleEvent({ top_ticket: 'PB-2' }) as never, { token: TOKEN });
    let error: unknown;
    try {
      verifyWebhook(JSON.parse(delivery.body) as never, delivery.headers, { token: TOKEN });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('parsed_body');
    expect((error as Error).message).toContain('app.use(express.json())');
    expect((error as Error).message).toContain(GUIDE);
  });
});
