/**
 * The handler inside real Express 5, Fastify 5 and Hono apps on a loopback port, with genuine
 * and forged deliveries POSTed over HTTP (issue 3, "Checked by").
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler } from '../../src/index.js';
import { buildWebhookDelivery } from '../../src/testing/index.js';
import { sampleEvent, TOKEN } from './support.js';

function counted() {
  const tickets: string[] = [];
  const handler = createWebhookHandler({ token: TOKEN, onEvent: (e) => void tickets.push(e.top_ticket) });
  return { handler, tickets };
}

const genuine = (ticket: string, encoding: 'json' | 'form' = 'json') =>
  buildWebhookDelivery(sampleEvent({ top_ticket: ticket }) as never, { token: TOKEN, encoding });
const forged = (ticket: string) =>
  buildWebhookDelivery(sampleEvent({ top_ticket: ticket }) as never, { token: 'attacker-guess' });

async function send(url: string, delivery: { body: string; headers: Record<string, string> }) {
  const response = await fetch(url, { method: 'POST', body: delivery.body, headers: delivery.headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function listen(server: Server): Promise<string> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('Express 5', () => {
  const raw = counted();
  const stream = counted();
  const misuse = counted();
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.post('/raw', express.raw({ type: '*/*' }), raw.handler.node);
    app.post('/stream', stream.handler.node);
    app.post('/json-parsed', express.json(), misuse.handler.node);
    server = app.listen(0, '127.0.0.1');
    base = await listen(server);
  });
  afterAll(() => close(server));

  it('after express.raw(): genuine 200 once, repeat 200 duplicate, forged 401', async () => {
    expect(await send(`${base}/raw`, genuine('EX-1'))).toMatchObject({
      status: 200,
      body: { result: 'processed' },
    });
    expect(await send(`${base}/raw`, genuine('EX-1'))).toMatchObject({
      status: 200,
      body: { result: 'duplicate' },
    });
    expect((await send(`${base}/raw`, forged('EX-2'))).status).toBe(401);
    expect(raw.tickets).toEqual(['EX-1']);
  });

  it('without a body parser the handler reads the stream itself (JSON and form bodies)', async () => {
    expect((await send(`${base}/stream`, genuine('EX-3'))).status).toBe(200);
    expect((await send(`${base}/stream`, genuine('EX-4', 'form'))).status).toBe(200);
    expect((await send(`${base}/stream`, forged('EX-5'))).status).toBe(401);
    expect(stream.tickets).toEqual(['EX-3', 'EX-4']);
  });

  it('after express.json(): refuses the parsed body with parsed_body and says how to fix it', async () => {
    const answer = await send(`${base}/json-parsed`, genuine('EX-6'));
    expect(answer).toMatchObject({ status: 400, body: { error: 'parsed_body' } });
    expect(String(answer.body.message)).toContain('express.raw');
    expect(misuse.tickets).toEqual([]);
  });
});

describe('Fastify 5', () => {
  const { handler, tickets } = counted();
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = Fastify();
    // Raw bytes for this route only: the signature covers the body as sent.
    await app.register(async (scope) => {
      scope.removeAllContentTypeParsers();
      scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      scope.post('/webhooks', async (request, reply) => {
        const result = await handler.handle(request.body as Buffer, request.headers);
        return reply.code(result.status).headers(result.headers).send(result.body);
      });
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => app.close());

  it('genuine 200 once (JSON and form), duplicate 200, forged 401, garbage 400', async () => {
    expect(await send(`${base}/webhooks`, genuine('FY-1'))).toMatchObject({
      status: 200,
      body: { result: 'processed' },
    });
    expect(await send(`${base}/webhooks`, genuine('FY-1'))).toMatchObject({ body: { result: 'duplicate' } });
    expect((await send(`${base}/webhooks`, genuine('FY-2', 'form'))).status).toBe(200);
    expect((await send(`${base}/webhooks`, forged('FY-3'))).status).toBe(401);
    const garbage = { body: '{"top_ticket":', headers: genuine('FY-4').headers };
    expect(await send(`${base}/webhooks`, garbage)).toMatchObject({
      status: 400,
      body: { error: 'malformed_body' },
    });
    expect(tickets).toEqual(['FY-1', 'FY-2']);
  });
});

describe('Hono on @hono/node-server', () => {
  const { handler, tickets } = counted();
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = new Hono();
    app.post('/webhooks', (c) => handler(c.req.raw));
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
    base = await listen(server);
  });
  afterAll(() => close(server));

  it('genuine 200 once, duplicate 200, forged 401, unsigned 401', async () => {
    expect(await send(`${base}/webhooks`, genuine('HO-1'))).toMatchObject({
      status: 200,
      body: { result: 'processed' },
    });
    expect(await send(`${base}/webhooks`, genuine('HO-1'))).toMatchObject({ body: { result: 'duplicate' } });
    expect((await send(`${base}/webhooks`, forged('HO-2'))).status).toBe(401);
    const unsigned = { body: genuine('HO-3').body, headers: { 'content-type': 'application/json' } };
    expect(await send(`${base}/webhooks`, unsigned)).toMatchObject({
      status: 401,
      body: { error: 'missing_signature' },
    });
    expect(tickets).toEqual(['HO-1']);
  });
});
