import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError, createWebhookHandler, WebhookDeduplicator } from '../../src/index.js';
import { RedisDedupeStore } from '../../src/redis/index.js';
import { delivery, sampleEvent, TOKEN } from '../webhooks/support.js';
import { REDIS_URL, requireRedis, skipRedis, uniquePrefix } from './support.js';

type NodeRedis = ReturnType<typeof createClient>;

describe.skipIf(skipRedis)('RedisDedupeStore', () => {
  let ioredis: Redis;
  let nodeRedis: NodeRedis;

  beforeAll(async () => {
    requireRedis();
    ioredis = new Redis(REDIS_URL);
    nodeRedis = createClient({ url: REDIS_URL });
    await nodeRedis.connect();
  });
  afterAll(async () => {
    ioredis?.disconnect();
    await nodeRedis?.close();
  });

  const clients = [
    { name: 'ioredis', store: (prefix: string) => new RedisDedupeStore(ioredis, { keyPrefix: prefix }) },
    { name: 'node-redis', store: (prefix: string) => new RedisDedupeStore(nodeRedis, { keyPrefix: prefix }) },
  ];

  for (const { name, store } of clients) {
    describe(`with ${name}`, () => {
      it('setIfAbsent is SET NX PX: first wins, expiry is set, value readable', async () => {
        const prefix = uniquePrefix(`${name}-nx`);
        const s = store(prefix);
        expect(await s.setIfAbsent('k', 'v1', 5_000)).toBe(true);
        expect(await s.setIfAbsent('k', 'v2', 5_000)).toBe(false);
        expect(await s.get('k')).toBe('v1');
        const ttl = await ioredis.pttl(`${prefix}k`);
        expect(ttl).toBeGreaterThan(0);
        expect(ttl).toBeLessThanOrEqual(5_000);
      });

      it('keys expire after their TTL', async () => {
        const s = store(uniquePrefix(`${name}-ttl`));
        await s.set('k', 'done', 30);
        expect(await s.get('k')).toBe('done');
        await new Promise((resolve) => setTimeout(resolve, 80));
        expect(await s.get('k')).toBeNull();
        expect(await s.get('never-set')).toBeNull();
      });

      it('deleteIfEquals deletes only while the value matches', async () => {
        const s = store(uniquePrefix(`${name}-del`));
        await s.set('k', 'lease-a', 5_000);
        await s.deleteIfEquals('k', 'lease-b');
        expect(await s.get('k')).toBe('lease-a');
        await s.deleteIfEquals('k', 'lease-a');
        expect(await s.get('k')).toBeNull();
      });

      it('deduplicator over Redis: new → in-flight → duplicate; release makes it claimable', async () => {
        const dedupe = new WebhookDeduplicator({ store: store(uniquePrefix(`${name}-dedupe`)) });
        const event = { top_ticket: 'R-1', top_status: 'APPROVED' };
        expect(await dedupe.claim(event)).toBe('new');
        expect(await dedupe.claim(event)).toBe('in-flight');
        await dedupe.release(event);
        expect(await dedupe.claim(event)).toBe('new');
        await dedupe.complete(event);
        expect(await dedupe.claim(event)).toBe('duplicate');
        expect(await dedupe.claim({ ...event, top_status: 'PENDING' })).toBe('new');
      });

      it('50 parallel deliveries through handlers with separate deduplicators: onEvent exactly once', async () => {
        const prefix = uniquePrefix(`${name}-parallel`);
        let calls = 0;
        // One handler per delivery, as if each ran in its own process: only Redis is shared.
        const handlers = Array.from({ length: 50 }, () =>
          createWebhookHandler({
            token: TOKEN,
            dedupe: new WebhookDeduplicator({ store: store(prefix) }),
            onEvent: async () => {
              calls++;
              await new Promise((resolve) => setTimeout(resolve, 50));
            },
          }),
        );
        const { body, headers } = delivery(sampleEvent({ top_ticket: `PAR-${name}` }));
        const results = await Promise.all(handlers.map((handler) => handler.handle(body, headers)));
        expect(calls).toBe(1);
        expect(results.filter((r) => r.status === 200)).toHaveLength(1);
        expect(results.filter((r) => r.status === 409)).toHaveLength(49);
        const again = await handlers[7]!.handle(body, headers);
        expect(JSON.parse(again.body)).toEqual({ received: true, result: 'duplicate' });
        expect(calls).toBe(1);
      });
    });
  }

  it('ioredis and node-redis stores with one prefix see the same state', async () => {
    const prefix = uniquePrefix('mixed');
    const a = new WebhookDeduplicator({ store: new RedisDedupeStore(ioredis, { keyPrefix: prefix }) });
    const b = new WebhookDeduplicator({ store: new RedisDedupeStore(nodeRedis, { keyPrefix: prefix }) });
    const event = { top_ticket: 'MIX-1', top_status: 'APPROVED' };
    expect(await a.claim(event)).toBe('new');
    expect(await b.claim(event)).toBe('in-flight');
    await a.complete(event);
    expect(await b.claim(event)).toBe('duplicate');
  });
});

describe('RedisDedupeStore construction', () => {
  it('refuses something that is neither an ioredis nor a node-redis client', () => {
    expect(() => new RedisDedupeStore({} as never)).toThrow(ConfigurationError);
    expect(() => new RedisDedupeStore(null as never)).toThrow(/ioredis|node-redis/);
  });
});
