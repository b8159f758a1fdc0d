/**
 * A worker's jobs that start or end in the same turn of the event loop share one script
 * (src/bullmq/script-batch.ts): what Redis receives is counted with MONITOR, on keys of this
 * test's own; each job's answer is still its own, and one job's failure is its alone.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from 'bullmq';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { endJob, startJob } from '../../src/bullmq/chunk-scripts.js';
import { REDIS_URL, skipQueue } from './support.js';

let redis: Redis;
let monitor: Awaited<ReturnType<Redis['monitor']>> | undefined;
let base: string;

beforeEach(() => {
  redis = new Redis(REDIS_URL);
  base = `payinout-test-batch-${randomUUID()}`;
});

afterEach(async () => {
  monitor?.disconnect();
  monitor = undefined;
  const keys = await redis.keys(`${base}:*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const keysOf = (batch: string) => ({
  leases: `${base}:leases`,
  pause: `${base}:pause`,
  halt: `${base}:${batch}:halt`,
  results: `${base}:${batch}:results`,
  counts: `${base}:${batch}:counts`,
});
const client = () => redis as unknown as RedisClient;
const READS = { pause: true, halt: true };

/** The scripts (EVAL, EVALSHA) this connection sends while `work` runs. */
async function scriptsSent(work: () => Promise<unknown>): Promise<number> {
  await redis.ping(); // connected, so MONITOR can tell this connection's commands apart
  const own = String(await redis.client('INFO')).match(/addr=(\S+)/)?.[1];
  monitor = await new Redis(REDIS_URL).monitor();
  let scripts = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source.endsWith(own ?? '?') && /^eval(sha)?$/i.test(args[0] ?? '')) scripts += 1;
  });
  await work();
  await redis.ping(); // MONITOR has printed everything sent before this
  await new Promise((resolve) => setTimeout(resolve, 50));
  return scripts;
}

describe.skipIf(skipQueue)('payinout/bullmq: the scripts of jobs in one turn', () => {
  it('three jobs starting in one turn send one script; each gets its own leases, one reference to one job', async () => {
    const taken: Awaited<ReturnType<typeof startJob>>[] = [];
    const scripts = await scriptsSent(async () => {
      taken.push(
        ...(await Promise.all([
          startJob(client(), keysOf('a'), ['ref-1', 'ref-2'], 'holder-a', 5_000, READS),
          startJob(client(), keysOf('b'), ['ref-3'], 'holder-b', 5_000, READS),
          startJob(client(), keysOf('c'), ['ref-1'], 'holder-c', 5_000, READS),
        ])),
      );
    });
    expect(scripts).toBe(1);
    const [a, b, c] = taken;
    expect(a!.tokens.every((t) => typeof t === 'string')).toBe(true);
    expect(b!.tokens[0]).toEqual(expect.any(String));
    // ref-1 went to the job asked first; the other waits for it, as with one script each.
    expect(c!.tokens).toEqual([null]);
    expect(Object.keys(await redis.hgetall(`${base}:leases`)).sort()).toEqual(['ref-1', 'ref-2', 'ref-3']);
  });

  it('jobs ending in one turn send one script; each releases its leases and saves its results', async () => {
    const [a, b] = await Promise.all([
      startJob(client(), keysOf('a'), ['ref-1'], 'holder-a', 5_000, READS),
      startJob(client(), keysOf('b'), ['ref-2'], 'holder-b', 5_000, READS),
    ]);
    const result = (ref: string) => ({
      itemId: `item-${ref}`,
      json: `{"reference":"${ref}"}`,
      outcome: 'created',
    });
    const scripts = await scriptsSent(() =>
      Promise.all([
        endJob(client(), keysOf('a'), [{ reference: 'ref-1', token: a!.tokens[0]! }], [result('ref-1')]),
        endJob(client(), keysOf('b'), [{ reference: 'ref-2', token: b!.tokens[0]! }], [result('ref-2')]),
      ]),
    );
    expect(scripts).toBe(1);
    expect(await redis.hlen(`${base}:leases`)).toBe(0);
    expect(await redis.hgetall(`${base}:a:results`)).toEqual({ 'item-ref-1': '{"reference":"ref-1"}' });
    expect(await redis.hgetall(`${base}:b:counts`)).toEqual({ created: '1' });
  });

  it('jobs of two queues on one connection go in a script per queue (each in its own Cluster slot)', async () => {
    const other = { ...keysOf('d'), leases: `${base}:other-queue:leases` };
    const scripts = await scriptsSent(() =>
      Promise.all([
        startJob(client(), keysOf('a'), ['ref-1'], 'holder-a', 5_000, READS),
        startJob(client(), other, ['ref-1'], 'holder-d', 5_000, READS),
      ]),
    );
    expect(scripts).toBe(2);
    expect(await redis.hlen(`${base}:leases`)).toBe(1);
    expect(await redis.hlen(`${base}:other-queue:leases`)).toBe(1);
  });

  it('a job whose key holds someone else’s value fails alone; the job beside it is answered', async () => {
    await redis.hset(`${base}:bad:halt`, 'not', 'a string'); // GET of the halt: WRONGTYPE
    const [bad, good] = await Promise.allSettled([
      startJob(client(), keysOf('bad'), ['ref-1'], 'holder-a', 5_000, READS),
      startJob(client(), keysOf('good'), ['ref-2'], 'holder-b', 5_000, READS),
    ]);
    expect(bad.status).toBe('rejected');
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
    expect(good.status === 'fulfilled' && typeof good.value.tokens[0]).toBe('string');
  });
});
