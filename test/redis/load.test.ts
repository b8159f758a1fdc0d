/**
 * Exactly-once under load, bounded (loopback only): two receivers — ioredis and node-redis, each
 * behind its own node:http server — share one Redis. 2,000 events are each delivered 3 times,
 * spread over both receivers, 32 at a time; 1 event in 50 has an onEvent 1.6× its lease.
 * Like the service, any non-200 answer is retried. Every event must run exactly once.
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHandler, WebhookDeduplicator } from '../../src/index.js';
import { RedisDedupeStore } from '../../src/redis/index.js';
import { delivery, recordingLogger, sampleEvent, serveHandler, sleep, TOKEN } from '../webhooks/support.js';
import { REDIS_URL, requireRedis, skipRedis, uniquePrefix } from './support.js';

const EVENTS = Number(process.env.LOAD_EVENTS ?? 2_000);
const COPIES = 3;
const CONCURRENCY = 32;
const LEASE_MS = 1_000;
const SLOW_MS = 1_600; // > LEASE_MS: only renewal keeps these claims
const SLOW_EVERY = 50; // 1 event in 50

describe.skipIf(skipRedis)('load: 2 receivers sharing Redis, every event exactly once', () => {
  let ioredis: Redis;
  let nodeRedis: ReturnType<typeof createClient>;
  const servers: Awaited<ReturnType<typeof serveHandler>>[] = [];
  const runs = new Map<string, number>();
  const logger = recordingLogger();

  beforeAll(async () => {
    requireRedis();
    ioredis = new Redis(REDIS_URL);
    nodeRedis = createClient({ url: REDIS_URL });
    await nodeRedis.connect();
    const prefix = uniquePrefix('load');
    for (const client of [ioredis, nodeRedis]) {
      const handler = createWebhookHandler({
        token: TOKEN,
        logger,
        dedupe: new WebhookDeduplicator({
          store: new RedisDedupeStore(client, { keyPrefix: prefix }),
          inFlightTtlMs: LEASE_MS,
          logger,
        }),
        onEvent: async (event) => {
          runs.set(event.top_ticket, (runs.get(event.top_ticket) ?? 0) + 1);
          if (Number(event.top_ticket.slice(5)) % SLOW_EVERY === 0) await sleep(SLOW_MS);
        },
      });
      servers.push(await serveHandler(handler));
    }
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    ioredis?.disconnect();
    await nodeRedis?.close();
  });

  it(`${EVENTS} events × ${COPIES} deliveries, some handlers slower than the lease`, async () => {
    const deliveries = Array.from({ length: EVENTS * COPIES }, (_, i) => i % EVENTS).sort(
      (a, b) => ((a * 2654435761) % 997) - ((b * 2654435761) % 997) || a - b,
    ); // copies of one event land close together and on both receivers
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async (w: number) => {
      while (next < deliveries.length) {
        const index = next++;
        const ticket = `LOAD-${deliveries[index]!}`;
        const signed = delivery(sampleEvent({ top_ticket: ticket }));
        for (let attempt = 0; ; attempt++) {
          const { status } = await servers[(index + w + attempt) % 2]!.post(signed);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 200) break;
          expect(status).toBe(409); // in flight elsewhere: the service retries later
          expect(attempt).toBeLessThan(100);
          await sleep(25);
        }
      }
    };
    const started = performance.now();
    await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
    const seconds = (performance.now() - started) / 1000;

    console.log(
      `load: ${EVENTS * COPIES} deliveries in ${seconds.toFixed(1)} s, answers ${JSON.stringify(Object.fromEntries(statuses))}, ${logger.lines.length} lease warnings`,
    );
    expect(runs.size).toBe(EVENTS);
    const twice = [...runs].filter(([, n]) => n !== 1);
    expect(twice).toEqual([]);
    expect(statuses.get(200)).toBe(EVENTS * COPIES);
    expect([...statuses.keys()].every((s) => s === 200 || s === 409)).toBe(true);
    expect(logger.lines).toEqual([]); // no lease lost or outlived
    // Bounded in count; the time limit only guards against a hang (a few seconds on an idle
    // 2-core machine, much longer when the machine is shared).
  }, 120_000);
});
