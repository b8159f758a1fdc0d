/**
 * The worker's defaults are the ones the queue bench chose (src/bullmq/defaults.ts): 4 jobs at
 * once, lockDuration 5 s, stalledInterval 2.5 s, maxStalledCount 5; what the merchant passes wins.
 * `payouts worker --help` tells the failover those locks give. Read from the BullMQ Worker a
 * real Redis connection made.
 */

import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPayOutWorker } from '../../src/bullmq/index.js';
import { PaymentClient } from '../../src/index.js';
import { REDIS_URL, ROOT, requireRedis, skipQueue } from './support.js';

const client = new PaymentClient({ username: 'u', password: 'p', token: 't', baseUrl: 'http://127.0.0.1:9' });
const open: { close(): Promise<void> }[] = [];

function worker(extra: Record<string, unknown> = {}) {
  const prefix = `payinout-defaults-${randomUUID().slice(0, 8)}`;
  const w = createPayOutWorker({
    queueName: 'defaults',
    connection: { url: REDIS_URL },
    client,
    ...extra,
    workerOptions: { prefix, autorun: false, ...(extra.workerOptions as object) },
  });
  open.push(w);
  return w;
}

describe.skipIf(skipQueue)("createPayOutWorker's defaults", () => {
  beforeAll(requireRedis);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((w) => w.close()));
  });

  it('4 jobs at once, lockDuration 5 s, stalledInterval 2.5 s, maxStalledCount 5', () => {
    const w = worker();
    expect(w.concurrency).toBe(4);
    expect(w.opts).toMatchObject({ lockDuration: 5_000, stalledInterval: 2_500, maxStalledCount: 5 });
  });

  it("the merchant's concurrency and lock settings win over payinout's", () => {
    const w = worker({ concurrency: 16, workerOptions: { lockDuration: 30_000, stalledInterval: 30_000 } });
    expect(w.concurrency).toBe(16);
    expect(w.opts).toMatchObject({ lockDuration: 30_000, stalledInterval: 30_000, maxStalledCount: 5 });
  });

  it('`payouts worker --help` gives the default concurrency and the failover of the default locks', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', 'src/cli/index.ts', 'payouts', 'worker', '--help'],
      { cwd: ROOT },
    );
    expect(stdout).toMatch(/--concurrency <n>[\s\S]*\(default: 4\)/);
    expect(stdout).toContain('taken over by another within about 7.5 s');
  });
});
