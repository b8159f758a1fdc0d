/**
 * Redis for the suites in test/redis: REDIS_URL or a local redis-server. Reachability is
 * decided once, at import; locally an unreachable Redis skips the suites with one line
 * (test/helpers/services.ts), while under CI the suites run and fail in beforeAll.
 */
import { REDIS_URL, redisReachable } from '../helpers/redis.js';

export { REDIS_URL };

import { randomUUID } from 'node:crypto';
import { skipWithout } from '../helpers/services.js';

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
