import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { JobLease, LeaseRenewal } from '../../src/bullmq/lease.js';
import { ownRedis, REDIS_URL, skipQueue } from './support.js';

const TTL_MS = 300; // a beat of 100 ms; trusted for 270 ms after each take or renewal

const own = ownRedis('renewal');

/** The references of each renewal script this connection sends (one key: the lease hash). */
async function renewalsOf(connection: Redis): Promise<string[][]> {
  await connection.ping();
  const address = String(await connection.client('INFO')).match(/addr=(\S+)/)?.[1];
  const monitor = await new Redis(REDIS_URL).monitor();
  own.monitor = monitor;
  const renewals: string[][] = [];
  monitor.on('monitor', (_time: string, args: string[], source: string) => {
    const [command, , keyCount, key] = args;
    if (!source.endsWith(address ?? '?') || !/^eval(sha)?$/i.test(command ?? '')) return;
    if (keyCount === '1' && key === `${own.base}:leases`)
      renewals.push(args.slice(5).filter((_, i) => i % 2 === 0));
  });
  return renewals;
}

describe.skipIf(skipQueue)('payinout/bullmq: lease renewals', () => {
  it("one script a beat renews every job's leases; none once the jobs are done", async () => {
    const client = Promise.resolve(own.redis as never);
    const keys = { leases: `${own.base}:leases`, pause: `${own.base}:pause`, halt: `${own.base}:halt` };
    const renewal = new LeaseRenewal(client, keys.leases, TTL_MS);
    const renewals = await renewalsOf(own.redis);
    const jobs = ['ref-1', 'ref-2', 'ref-3'].map((ref) => ({
      ref,
      lease: new JobLease(client, keys, renewal),
    }));
    for (const { ref, lease } of jobs) await lease.start(own.redis as never, [ref], { pause: false });
    await new Promise((resolve) => setTimeout(resolve, 450)); // four beats, past the 270 ms trusted
    expect(jobs.every(({ ref, lease }) => lease.holdsNow(ref))).toBe(true);
    expect(renewals.length).toBeGreaterThanOrEqual(2);
    expect(renewals.length).toBeLessThanOrEqual(6);
    for (const refs of renewals) expect(refs.sort()).toEqual(['ref-1', 'ref-2', 'ref-3']);
    for (const { lease } of jobs) lease.finish();
    await own.redis.ping();
    const after = renewals.length;
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(renewals.length).toBe(after);
  });
});
