/**
 * The webhook handler never hangs on Redis. ioredis and node-redis are configured exactly as
 * docs/webhooks.md shows (node-redis keeps its default offline queue: commands wait while it is
 * disconnected). Redis is reached through a loopback proxy that the test pauses (Redis hung) or
 * takes down (Redis stopped): every delivery is answered 503 within storeTimeoutMs — never 200,
 * never a hang — and the service's retry is processed, once, when Redis is back.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, DedupeStoreTimeoutError, WebhookDeduplicator } from '../../src/index.js';
import { type RedisClientLike, RedisDedupeStore } from '../../src/redis/index.js';
import { delivery, recordingLogger, sampleEvent, sleep, TOKEN } from '../webhooks/support.js';
import { type RedisProxy, startRedisProxy, startSilentServer } from './proxy.js';
import { REDIS_URL, requireRedis, skipRedis, uniquePrefix } from './support.js';

const STORE_TIMEOUT_MS = 300;

/** docs/webhooks.md, "Dedupe and retries": the two client set-ups, verbatim but for the URL. */
const clients = {
  ioredis: async (url: string) => {
    const redis = new Redis(url);
    redis.on('error', () => {}); // docs: log it; here the test's reconnects are expected
    return { client: redis, close: async () => redis.disconnect() };
  },
  'node-redis': async (url: string) => {
    const client = createClient({ url });
    client.on('error', () => {}); // docs: node-redis exits the process on an unhandled 'error'
    await client.connect();
    return { client, close: async () => void (await client.close().catch(() => {})) };
  },
};

function receiver(client: RedisClientLike, prefix: string) {
  let runs = 0;
  const errors: unknown[] = [];
  const logger = recordingLogger();
  const store = new RedisDedupeStore(client, { keyPrefix: prefix });
  const handler = createWebhookHandler({
    token: TOKEN,
    logger,
    dedupe: new WebhookDeduplicator({ store, storeTimeoutMs: STORE_TIMEOUT_MS, logger }),
    onEvent: () => {
      runs++;
    },
    onError: (error) => void errors.push(error),
  });
  return { handler, errors, runs: () => runs };
}

/** The service's behaviour: deliver, and retry a non-200 (here every 100 ms) up to `attempts` times. */
async function deliverUntil200(handle: () => Promise<{ status: number }>, attempts = 60): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < attempts; i++) {
    const { status } = await handle();
    statuses.push(status);
    if (status === 200) break;
    await sleep(100);
  }
  return statuses;
}

describe.skipIf(skipRedis)('Redis hung or down: 503, never 200, never a hang', () => {
  let proxy: RedisProxy;
  beforeAll(async () => {
    requireRedis();
    proxy = await startRedisProxy(REDIS_URL);
  });
  afterAll(() => proxy?.close());

  for (const [name, open] of Object.entries(clients)) {
    it(`${name}: hung Redis → 503 within storeTimeoutMs; after it answers again the retry is processed once`, async () => {
      const { client, close } = await open(proxy.url);
      try {
        const r = receiver(client as RedisClientLike, uniquePrefix(`${name}-hung`));
        const genuine = delivery(sampleEvent({ top_ticket: `HUNG-${name}` }));
        expect((await r.handler.handle(genuine.body, genuine.headers)).status).toBe(200);
        const other = delivery(sampleEvent({ top_ticket: `HUNG-${name}-2` }));
        proxy.pause();
        const started = Date.now();
        const answer = await r.handler.handle(other.body, other.headers);
        expect(answer.status).toBe(503);
        expect(Date.now() - started).toBeLessThan(STORE_TIMEOUT_MS + 1_000);
        expect(r.errors.at(-1)).toBeInstanceOf(DedupeStoreTimeoutError);
        expect((await r.handler.handle(genuine.body, genuine.headers)).status).toBe(503); // not 200 from memory
        proxy.resume();
        const retries = await deliverUntil200(() => r.handler.handle(other.body, other.headers));
        expect(retries.at(-1)).toBe(200);
        expect(r.runs()).toBe(2);
        expect(JSON.parse((await r.handler.handle(other.body, other.headers)).body).result).toBe('duplicate');
      } finally {
        proxy.resume();
        await close();
      }
    });

    it(`${name}: stopped Redis → 503 on every delivery; when it is back the retry is processed once`, async () => {
      const { client, close } = await open(proxy.url);
      try {
        const r = receiver(client as RedisClientLike, uniquePrefix(`${name}-down`));
        const genuine = delivery(sampleEvent({ top_ticket: `DOWN-${name}` }));
        await proxy.down();
        for (let i = 0; i < 3; i++) {
          const started = Date.now();
          expect((await r.handler.handle(genuine.body, genuine.headers)).status).toBe(503);
          expect(Date.now() - started).toBeLessThan(STORE_TIMEOUT_MS + 1_000);
        }
        expect(r.runs()).toBe(0);
        await proxy.up();
        const retries = await deliverUntil200(() => r.handler.handle(genuine.body, genuine.headers));
        expect(retries.at(-1)).toBe(200);
        expect(retries.slice(0, -1).every((s) => s === 503)).toBe(true);
        expect(r.runs()).toBe(1);
      } finally {
        if (!(await isListening(proxy.url))) await proxy.up();
        await close();
      }
    });
  }

  it('ioredis against a server that accepts and never answers → 503, no hang', async () => {
    const silent = await startSilentServer();
    const { client, close } = await clients.ioredis(silent.url);
    try {
      const r = receiver(client, uniquePrefix('silent'));
      const started = Date.now();
      expect((await r.handler.handle(delivery().body, delivery().headers)).status).toBe(503);
      expect(Date.now() - started).toBeLessThan(STORE_TIMEOUT_MS + 1_000);
      expect(r.runs()).toBe(0);
    } finally {
      await close();
      await silent.close();
    }
  });
});

async function isListening(url: string): Promise<boolean> {
  const { connect } = await import('node:net');
  const { port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}
