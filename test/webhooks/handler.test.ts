import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, WebhookDeduplicator, type WebhookEvent } from '../../src/index.js';
import { delivery, leaksSecrets, PII, sampleEvent, TOKEN } from './support.js';

const post = (body: BodyInit, headers: Record<string, string>) =>
  new Request('http://merchant.test/webhooks', { method: 'POST', body, headers });

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('createWebhookHandler (Fetch API)', () => {
  it('200 processed, then 200 duplicate for the same event; onEvent ran once', async () => {
    const events: WebhookEvent[] = [];
    const handler = createWebhookHandler({ token: TOKEN, onEvent: (event) => void events.push(event) });
    const { body, headers } = delivery();
    expect(await json(await handler(post(body, headers)))).toEqual({
      status: 200,
      body: { received: true, result: 'processed' },
    });
    expect(await json(await handler(post(body, headers)))).toEqual({
      status: 200,
      body: { received: true, result: 'duplicate' },
    });
    expect(events.map((e) => e.top_status)).toEqual(['APPROVED']);
  });

  it('PENDING then APPROVED for one ticket are both processed', async () => {
    const seen: string[] = [];
    const handler = createWebhookHandler({
      token: TOKEN,
      onEvent: (e) => void seen.push(String(e.top_status)),
    });
    for (const status of ['PENDING', 'APPROVED', 'PENDING']) {
      const { body, headers } = delivery(sampleEvent({ top_status: status }));
      expect((await handler(post(body, headers))).status).toBe(200);
    }
    expect(seen).toEqual(['PENDING', 'APPROVED']);
  });

  it('401 for forged or unsigned deliveries, 400 for malformed, 413 over the cap, 405 for GET', async () => {
    let calls = 0;
    const handler = createWebhookHandler({ token: TOKEN, onEvent: () => void calls++, maxBodyBytes: 4096 });
    const { body, headers } = delivery();
    const forged = await json(await handler(post(body.replace('TCK-0001', 'TCK-9'), headers)));
    expect(forged).toMatchObject({ status: 401, body: { error: 'signature_mismatch' } });
    const unsigned = await json(await handler(post(body, { 'content-type': 'application/json' })));
    expect(unsigned).toMatchObject({ status: 401, body: { error: 'missing_signature' } });
    const broken = await json(await handler(post('{"top_ticket":', headers)));
    expect(broken).toMatchObject({ status: 400, body: { error: 'malformed_body' } });
    const big = delivery(sampleEvent({ padding: 'x'.repeat(5000) }));
    expect(await json(await handler(post(big.body, big.headers)))).toMatchObject({
      status: 413,
      body: { error: 'body_too_large' },
    });
    const get = await handler(new Request('http://merchant.test/webhooks'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(calls).toBe(0);
  });

  it('500 when onEvent throws, without leaking its message; the retry is then processed', async () => {
    let attempts = 0;
    const errors: number[] = [];
    const handler = createWebhookHandler({
      token: TOKEN,
      onEvent: () => {
        attempts++;
        if (attempts === 1) throw new Error(`db down for ${PII.email}`);
      },
      onError: (_error, context) => void errors.push(context.status),
    });
    const { body, headers } = delivery();
    const failed = await handler(post(body, headers));
    expect(failed.status).toBe(500);
    expect(leaksSecrets(await failed.text())).toBe(false);
    expect(errors).toEqual([500]);
    const retried = await json(await handler(post(body, headers)));
    expect(retried).toEqual({ status: 200, body: { received: true, result: 'processed' } });
    expect(attempts).toBe(2);
  });

  it('50 parallel deliveries of one event: onEvent exactly once; the rest are 409 in-flight or 200 duplicate', async () => {
    let calls = 0;
    const handler = createWebhookHandler({
      token: TOKEN,
      onEvent: async () => {
        calls++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      },
    });
    const { body, headers } = delivery();
    const responses = await Promise.all(Array.from({ length: 50 }, () => handler(post(body, headers))));
    const statuses = responses.map((r) => r.status);
    expect(calls).toBe(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(responses.find((r) => r.status === 409)?.headers.get('retry-after')).toBe('60');
    expect((await handler(post(body, headers))).status).toBe(200);
    expect(calls).toBe(1);
  });

  it('dedupe: false processes every delivery; a shared deduplicator spans handlers', async () => {
    let calls = 0;
    const noDedupe = createWebhookHandler({ token: TOKEN, onEvent: () => void calls++, dedupe: false });
    const { body, headers } = delivery();
    await noDedupe(post(body, headers));
    await noDedupe(post(body, headers));
    expect(calls).toBe(2);
    const shared = new WebhookDeduplicator();
    const a = createWebhookHandler({ token: TOKEN, onEvent: () => void calls++, dedupe: shared });
    const b = createWebhookHandler({ token: TOKEN, onEvent: () => void calls++, dedupe: shared });
    await a(post(body, headers));
    expect(await json(await b(post(body, headers)))).toMatchObject({ body: { result: 'duplicate' } });
    expect(calls).toBe(3);
  });

  it('503 when the dedupe store fails, without running onEvent', async () => {
    let calls = 0;
    const broken = new WebhookDeduplicator({
      store: {
        setIfAbsent: () => Promise.reject(new Error('redis down')),
        get: () => Promise.resolve(null),
        set: () => Promise.resolve(),
        deleteIfEquals: () => Promise.resolve(),
      },
    });
    const handler = createWebhookHandler({ token: TOKEN, onEvent: () => void calls++, dedupe: broken });
    const { body, headers } = delivery();
    expect((await handler(post(body, headers))).status).toBe(503);
    expect(calls).toBe(0);
  });

  it('handle(rawBody, headers) answers the same for any framework', async () => {
    const handler = createWebhookHandler({ token: TOKEN, onEvent: () => {} });
    const { body, headers } = delivery();
    const result = await handler.handle(Buffer.from(body), headers);
    expect(result.status).toBe(200);
    expect(result.headers['content-type']).toContain('application/json');
    expect((await handler.handle({} as never, headers)).status).toBe(400);
  });
});

describe('createWebhookHandler.node on node:http', () => {
  let server: Server;
  let url: string;
  const seen: string[] = [];
  const handler = createWebhookHandler({ token: TOKEN, onEvent: (e) => void seen.push(e.top_ticket) });

  beforeAll(async () => {
    server = createServer((req, res) => void handler.node(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('reads the raw stream itself: genuine → 200, forged → 401, oversize (chunked) → 413', async () => {
    const { body, headers } = delivery(sampleEvent({ top_ticket: 'NODE-1' }));
    expect((await fetch(url, { method: 'POST', body, headers })).status).toBe(200);
    const forged = await fetch(url, {
      method: 'POST',
      body,
      headers: { ...headers, 'x-trx-signature': 'ab'.repeat(32) },
    });
    expect(forged.status).toBe(401);
    const huge = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 300; i++) controller.enqueue(new Uint8Array(1024).fill(32));
        controller.close();
      },
    });
    const init = { method: 'POST', body: huge, headers, duplex: 'half' } as RequestInit;
    expect((await fetch(url, init)).status).toBe(413);
    expect(seen).toEqual(['NODE-1']);
  });
});
