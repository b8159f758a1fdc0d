import type { RedisClient } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { endJob, startJob } from '../../src/bullmq/chunk-scripts.js';
import { ownRedis, REDIS_URL, skipQueue } from './support.js';

const own = ownRedis('batch');

const keysOf = (batch: string) => ({
  leases: `${own.base}:leases`,
  pause: `${own.base}:pause`,
  halt: `${own.base}:${batch}:halt`,
  results: `${own.base}:${batch}:results`,
  counts: `${own.base}:${batch}:counts`,
});
const client = () => own.redis as unknown as RedisClient;
const READS = { pause: true, halt: true };

/** The scripts (EVAL, EVALSHA) this connection sends while `work` runs. */
async function scriptsSent(work: () => Promise<unknown>): Promise<number> {
  await own.redis.ping(); // connected, so MONITOR can tell this connection's commands apart
  const address = String(await own.redis.client('INFO')).match(/addr=(\S+)/)?.[1];
  const monitor = await new Redis(REDIS_URL).monitor();
  own.monitor = monitor;
  let scripts = 0;
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    if (source.endsWith(address ?? '?') && /^eval(sha)?$/i.test(args[0] ?? '')) scripts += 1;
  });
  await work();
  await own.redis.ping(); // MONITOR has printed everything sent before this
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
    expect(Object.keys(await own.redis.hgetall(`${own.base}:leases`)).sort()).toEqual([
      'ref-1',
      'ref-2',
      'ref-3',
    ]);
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
    expect(await own.redis.hlen(`${own.base}:leases`)).toBe(0);
    expect(await own.redis.hgetall(`${own.base}:a:results`)).toEqual({
      'item-ref-1': '{"reference":"ref-1"}',
    });
    expect(await own.redis.hgetall(`${own.base}:b:counts`)).toEqual({ created: '1' });
  });

  it('jobs of two queues on one connection go in a script per queue (each in its own Cluster slot)', async () => {
    const other = { ...keysOf('d'), leases: `${own.base}:other-queue:leases` };
    const scripts = await scriptsSent(() =>
      Promise.all([
        startJob(client(), keysOf('a'), ['ref-1'], 'holder-a', 5_000, READS),
        startJob(client(), other, ['ref-1'], 'holder-d', 5_000, READS),
      ]),
    );
    expect(scripts).toBe(2);
    expect(await own.redis.hlen(`${own.base}:leases`)).toBe(1);
    expect(await own.redis.hlen(`${own.base}:other-queue:leases`)).toBe(1);
  });

  it('a job whose key holds someone else’s value fails alone; the job beside it is answered', async () => {
    await own.redis.hset(`${own.base}:bad:halt`, 'not', 'a string'); // GET of the halt: WRONGTYPE
    const [bad, good] = await Promise.allSettled([
      startJob(client(), keysOf('bad'), ['ref-1'], 'holder-a', 5_000, READS),
      startJob(client(), keysOf('good'), ['ref-2'], 'holder-b', 5_000, READS),
    ]);
    expect(bad.status).toBe('rejected');
    expect(String((bad as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/);
    expect(good.status === 'fulfilled' && typeof good.value.tokens[0]).toBe('string');
  });
});
