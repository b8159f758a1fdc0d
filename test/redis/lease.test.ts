/**
 * A claim holds for as long as onEvent runs, on Redis (test/webhooks/lease.test.ts does the same
 * in memory): two receivers — one on ioredis, one on node-redis — share a Redis; onEvent takes
 * five leases; the lease is renewed (compare-and-set Lua) so the other receiver answers 409
 * until the first completes, and `complete` is fenced by the claim's token.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, WebhookDeduplicator } from '../../src/index.js';
import { RedisDedupeStore } from '../../src/redis/index.js';
import {
  delivery,
  recordingLogger,
  sampleEvent,
  serveHandler,
  sleep,
  TOKEN,
  whileRunning,
} from '../webhooks/support.js';
import { REDIS_URL, requireRedis, skipRedis, uniquePrefix } from './support.js';

describe.skipIf(skipRedis)('leases on Redis', () => {
  let ioredis: Redis;
  let nodeRedis: ReturnType<typeof createClient>;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    requireRedis();
    ioredis = new Redis(REDIS_URL);
    nodeRedis = createClient({ url: REDIS_URL });
    await nodeRedis.connect();
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  afterAll(async () => {
    ioredis?.disconnect();
    await nodeRedis?.close();
  });

  it('onEvent slower than the lease, two receivers: renewed, 409 throughout, then duplicate; ran once', async () => {
    const prefix = uniquePrefix('slow');
    const runs: string[] = [];
    const logger = recordingLogger();
    const receiver = async (name: string, client: Redis | typeof nodeRedis) => {
      const store = new RedisDedupeStore(client, { keyPrefix: prefix });
      const handler = createWebhookHandler({
        token: TOKEN,
        logger,
        dedupe: new WebhookDeduplicator({ store, inFlightTtlMs: 300, logger }),
        onEvent: async () => {
          runs.push(name);
          await sleep(1_500); // five leases long
        },
      });
      const served = await serveHandler(handler);
      closers.push(served.close);
      return served;
    };
    const a = await receiver('ioredis', ioredis);
    const b = await receiver('node-redis', nodeRedis);
    const genuine = delivery(sampleEvent({ top_ticket: 'REDIS-SLOW-1' }));
    const during = await whileRunning(a.post(genuine), () => b.post(genuine), 320);
    expect(during.first.status).toBe(200);
    expect(during.statuses.length).toBeGreaterThanOrEqual(3); // B asked across at least 3 leases
    expect(new Set(during.statuses)).toEqual(new Set([409]));
    expect((await b.post(genuine)).body).toEqual({ received: true, result: 'duplicate' });
    expect(runs).toEqual(['ioredis']);
    expect(logger.lines).toEqual([]);
    expect(await ioredis.get(`${prefix}REDIS-SLOW-1:APPROVED`)).toBe('done');
  });

  it('complete is fenced by the token: a stalled owner whose lease was taken over cannot mark it done', async () => {
    const prefix = uniquePrefix('fence');
    const log = recordingLogger();
    const a = new WebhookDeduplicator({
      store: new RedisDedupeStore(ioredis, { keyPrefix: prefix }),
      inFlightTtlMs: 50,
      logger: log,
    });
    const b = new WebhookDeduplicator({
      store: new RedisDedupeStore(nodeRedis, { keyPrefix: prefix }),
      inFlightTtlMs: 5_000,
      logger: recordingLogger(),
    });
    const event = { top_ticket: 'FENCE-1', top_status: 'APPROVED' };
    const { lease: stalled } = await a.acquire(event);
    await sleep(80); // a's lease expires in Redis (PX 50)
    const { result, lease: owner } = await b.acquire(event);
    expect(result).toBe('new');
    expect(await stalled!.renew()).toBe(false);
    expect(await stalled!.complete()).toBe(false);
    expect(log.lines.map((l) => l.level)).toEqual(['error']);
    expect(await ioredis.get(`${prefix}FENCE-1:APPROVED`)).toBe(owner!.token);
    expect(await owner!.renew()).toBe(true);
    expect(await ioredis.pttl(`${prefix}FENCE-1:APPROVED`)).toBeGreaterThan(4_000);
    expect(await owner!.complete()).toBe(true);
    expect(await a.claim(event)).toBe('duplicate');
  });
});
