/**
 * Redis for the suites in test/redis: REDIS_URL or a local redis-server. Reachability is
 * decided once, at import; locally an unreachable Redis skips the suites with one line
 * (test/helpers/services.ts), while under CI the suites run and fail in beforeAll.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { skipWithout } from '../helpers/services.js';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

async function ping(): Promise<boolean> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export const redisReachable = await ping();

/** Skip only outside CI; in CI the suite runs and `requireRedis` fails it. */
export const skipRedis = skipWithout(
  `Redis unreachable at ${REDIS_URL}`,
  redisReachable,
  'apt-get install redis-server and start it (redis-server --daemonize yes), or set REDIS_URL',
);

export function requireRedis(): void {
  if (!redisReachable) {
    throw new Error(
      `Redis is unreachable at ${REDIS_URL} and CI is set: Redis dedupe tests must run in CI. Start redis-server or set REDIS_URL.`,
    );
  }
}

/** A key prefix no other test (or run) shares. */
export const uniquePrefix = (name: string) => `payinout-test:${name}:${randomUUID()}:`;
