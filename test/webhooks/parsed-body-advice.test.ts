/**
 * The usual way a webhook body reaches the handler already parsed: a global
 * `app.use(express.json())` registered before the route. The 400 `parsed_body` answer (and the
 * error of `verifyWebhook`) names that cause and the fix, with the guide's full address, in a
 * real Express 5 app on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
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
    expect(body.message).toContain(
      'node_modules/payinout/docs/webhooks.md#raw-bodies-framework-by-framework',
    );
    // Each piece of advice once.
    expect(body.message.split('express.json()').length - 1).toBe(2); // the cause, then "register before it"
    expect(body.message.split('express.raw(').length - 1).toBe(1);
    expect(body.message.split(GUIDE).length - 1).toBe(1);
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

describe('a plain node:http app that read the stream itself', () => {
  let plain: Server;
  let plainBase: string;
  const seen: string[] = [];
  beforeAll(async () => {
    const handler = createWebhookHandler({ token: TOKEN, onEvent: (e) => void seen.push(e.top_ticket) });
    plain = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer); // e.g. to log it
      if (req.url === '/advice') {
        // What the message says to do with the bytes read.
        const result = await handler.handle(Buffer.concat(chunks), req.headers);
        res.writeHead(result.status, result.headers).end(result.body);
      } else await handler.node(req, res);
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => plain.once('listening', resolve));
    plainBase = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => plain.close(() => resolve())));

  it('400 malformed_body saying the stream was already read and showing handler.handle(rawBody, req.headers)', async () => {
    const delivery = buildWebhookDelivery(sampleEvent({ top_ticket: 'PB-3' }) as never, { token: TOKEN });
    const response = await fetch(`${plainBase}/late`, {
      method: 'POST',
      body: delivery.body,
      headers: delivery.headers,
    });
    const body = (await response.json()) as { error: string; message: string };
    expect(response.status).toBe(400);
    expect(body.error).toBe('malformed_body');
    expect(body.message).toMatch(/request stream was already read before handler\.node\(req, res\) ran/);
    expect(body.message).toContain('handler.handle(rawBody, req.headers)');
    expect(body.message).not.toMatch(/express/);
    expect(body.message).toContain(GUIDE);
    expect(seen).toEqual([]);
  });

  it('following that advice, the same delivery is accepted', async () => {
    const delivery = buildWebhookDelivery(sampleEvent({ top_ticket: 'PB-4' }) as never, { token: TOKEN });
    const response = await fetch(`${plainBase}/advice`, {
      method: 'POST',
      body: delivery.body,
      headers: delivery.headers,
    });
    expect(response.status).toBe(200);
    expect(seen).toEqual(['PB-4']);
  });
});
