/**
 * The queue suites' Redis and worker processes. Redis is REDIS_URL (CI starts one) or a local
 * redis-server; outside CI an unreachable Redis skips the suites with one line naming what to
 * install, under CI=true they fail. Every test gets its own key prefix and queue name, and
 * deletes its keys after: other runs on the same Redis are never touched.
 */
import { REDIS_URL, redisReachable } from '../helpers/redis.js';

export { REDIS_URL };

import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { MERCHANT, type QueueServer, startQueueServer } from './server.js';

export const ROOT = join(import.meta.dirname, '..', '..');

/** Skip only outside CI; in CI the suite runs and fails in beforeAll. */
export const skipQueue = !redisReachable && !process.env.CI;
if (skipQueue) {
  console.warn(
    `test/bullmq skipped: no Redis at ${REDIS_URL}; install and start redis-server (e.g. apt-get install redis-server) or set REDIS_URL.`,
  );
}

export function requireRedis(): void {
  if (!redisReachable) {
    throw new Error(
      `Redis is unreachable at ${REDIS_URL} and CI is set: the queue suites must run. Start redis-server or set REDIS_URL.`,
    );
  }
}

/** A queue of its own: a unique prefix and name, and `cleanup()` that deletes only its keys. */
export interface TestQueue {
  prefix: string;
  name: string;
  queue: Queue;
  cleanup(): Promise<void>;
}

/** `prefix`: 'bull' for a process that cannot be given one (the CLI); the name is unique then. */
export function testQueue(prefix = `payinout-test-${randomUUID().slice(0, 8)}`): TestQueue {
  const name = `payouts-${randomUUID().slice(0, 8)}`;
  const queue = new Queue(name, { connection: { url: REDIS_URL }, prefix });
  return {
    prefix,
    name,
    queue,
    async cleanup() {
      await queue.close();
      const redis = new Redis(REDIS_URL);
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:${name}:*`, 'COUNT', 1000);
          cursor = next;
          if (keys.length) await redis.del(...keys);
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}

/** Every value stored under the queue's keys (strings, hashes, lists, sets, streams), as text. */
export async function storedText(q: TestQueue): Promise<string> {
  const redis = new Redis(REDIS_URL);
  const parts: string[] = [];
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${q.prefix}:${q.name}:*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) {
        const type = await redis.type(key);
        if (type === 'string') parts.push(String(await redis.get(key)));
        if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
        if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(key, '-', '+')));
      }
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return parts.join('\n');
}

export interface WorkerProcess {
  child: ChildProcess;
  name: string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  output(): string;
}

/** A worker child process (test/bullmq/worker-child.ts); resolves once it is connected. */
export async function startWorker(
  q: TestQueue,
  baseUrl: string,
  name: string,
  env: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/bullmq/worker-child.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PAYINOUT_USERNAME: MERCHANT.username,
      PAYINOUT_PASSWORD: MERCHANT.password,
      PAYINOUT_TOKEN: MERCHANT.token,
      PAYINOUT_BASE_URL: baseUrl,
      REDIS_URL,
      QUEUE_NAME: q.name,
      QUEUE_PREFIX: q.prefix,
      WORKER_NAME: name,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker ${name} did not start: ${output}`)), 15_000);
    child.stdout.on('data', () => {
      if (output.includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) =>
      reject(new Error(`worker ${name} exited (${code}) before it was ready: ${output}`)),
    );
  });
  return { child, name, exited, output: () => output };
}

/** Stops workers that are still running (SIGTERM: they finish their jobs and exit 0). */
export async function stopWorkers(workers: WorkerProcess[]): Promise<void> {
  await Promise.all(
    workers.map(async (w) => {
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
      await w.exited;
    }),
  );
}

/** Polls `check` until it returns a value, or fails after `ms`. */
export async function until<T>(check: () => Promise<T | undefined>, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What each test of a worker-process suite gets, fresh: the simulator's server and a queue. */
export interface QueueSuite {
  server: QueueServer;
  q: TestQueue;
  /** The workers the test started: stopped after it (SIGTERM, then SIGKILL). */
  workers: WorkerProcess[];
  /** Closed after the workers stopped (e.g. a proxy a worker talks to Redis through). */
  closeAfter: Array<() => Promise<void>>;
}

/** Registers the hooks of a suite of worker processes; read its fields inside tests only. */
export function queueSuite(): QueueSuite {
  const suite = {} as QueueSuite;
  beforeAll(requireRedis);
  beforeEach(async () => {
    suite.server = await startQueueServer();
    suite.q = testQueue();
    suite.workers = [];
    suite.closeAfter = [];
  });
  afterEach(async () => {
    await stopWorkers(suite.workers); // first: a worker cut from Redis or the server cannot finish
    for (const close of suite.closeAfter.splice(0)) await close();
    await suite.q.cleanup();
    await suite.server.close();
  });
  return suite;
}

/** A Redis connection and a key prefix of one test's own, renewed per test; after it, its keys are deleted. */
export interface OwnRedis {
  redis: Redis;
  /** `payinout-test-<name>-<uuid>`: every key the test writes starts with it. */
  base: string;
  /** A MONITOR connection the test opened: closed after the test. */
  monitor: { disconnect(): void } | undefined;
}

/** Registers the hooks that give each test of the file its {@link OwnRedis}. */
export function ownRedis(name: string): OwnRedis {
  const own = { monitor: undefined } as OwnRedis;
  beforeEach(() => {
    own.redis = new Redis(REDIS_URL);
    own.base = `payinout-test-${name}-${randomUUID()}`;
  });
  afterEach(async () => {
    own.monitor?.disconnect();
    own.monitor = undefined;
    const keys = await own.redis.keys(`${own.base}:*`);
    if (keys.length) await own.redis.del(...keys);
    own.redis.disconnect();
  });
  return own;
}
