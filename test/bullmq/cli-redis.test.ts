/**
 * `payinout payouts send --queue` and `payouts worker` when Redis is not what the URL says or
 * goes away (issue 24 items 6, 7): a database the server does not have is refused before
 * anything is enqueued (not silently database 0), and a Redis killed mid-run ends the command in
 * bounded time, naming Redis and saying what was enqueued.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PAYOUT_CSV_HEADER, payoutCells } from '../helpers/payout-csv.js';
import { type OwnRedis, skipOwnRedis, startRedisServer } from './redis-server.js';
import { MERCHANT, payout } from './server.js';
import { REDIS_URL, ROOT, requireRedis, skipQueue } from './support.js';

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stderr: string; ms: number }>;
  stderr(): string;
}

function cli(args: string[], env: Record<string, string> = {}): Run {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYINOUT_')));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const started = Date.now();
  let stderr = '';
  child.stderr?.on('data', (c) => (stderr += c));
  child.stdout?.resume();
  const done = new Promise<{ code: number | null; stderr: string; ms: number }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr, ms: Date.now() - started })),
  );
  return { child, done, stderr: () => stderr };
}

function csvOf(n: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'payinout-queue-')), 'payouts.csv');
  const rows = Array.from({ length: n }, (_, i) => payoutCells(payout(i + 1)).join(','));
  writeFileSync(file, `${[PAYOUT_CSV_HEADER, ...rows].join('\n')}\n`);
  return file;
}

const name = () => `payouts-db-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

/** Keys of queue `queue` in database 0 of the shared Redis. */
async function keysOf(queue: string): Promise<string[]> {
  const redis = new Redis(REDIS_URL);
  try {
    return await redis.keys(`bull:${queue}:*`);
  } finally {
    redis.disconnect();
  }
}

function onDatabase(url: string, db: number): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

const running: Run[] = [];
afterEach(async () => {
  for (const run of running.splice(0)) {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await run.done;
  }
});

describe.skipIf(skipQueue)('payouts send/worker --queue on a database the server lacks', () => {
  beforeAll(requireRedis);

  it('send --queue …/42 on a 16-database server: exit 1 naming database 42, nothing enqueued anywhere', async () => {
    const queue = name();
    const run = cli([
      'payouts',
      'send',
      csvOf(3),
      '--queue',
      onDatabase(REDIS_URL, 42),
      '--queue-name',
      queue,
    ]);
    running.push(run);
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(stderr).toMatch(/refused database 42 .*Nothing was enqueued/);
    expect(stderr).not.toMatch(/enqueued on/);
    expect(await keysOf(queue)).toEqual([]);
  }, 30_000);

  it('worker --queue …/42: exit 1 naming database 42 before taking any job', async () => {
    const run = cli(['payouts', 'worker', '--queue', onDatabase(REDIS_URL, 42), '--queue-name', name()], {
      PAYINOUT_USERNAME: MERCHANT.username,
      PAYINOUT_PASSWORD: MERCHANT.password,
      PAYINOUT_TOKEN: MERCHANT.token,
      PAYINOUT_BASE_URL: 'http://127.0.0.1:9',
    });
    running.push(run);
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(stderr).toMatch(/refused database 42/);
    expect(stderr).not.toContain('settling PayOuts');
  }, 30_000);
});

describe.skipIf(skipOwnRedis)('payouts send --queue when Redis dies mid-run', () => {
  let redis: OwnRedis | undefined;
  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  it('Redis killed while send waits for workers: exit 1 within ~15 s, naming Redis, the batch and what was enqueued', async () => {
    redis = await startRedisServer();
    const run = cli([
      'payouts',
      'send',
      csvOf(5),
      '--queue',
      redis.url,
      '--queue-name',
      'payouts',
      '--batch',
      'lost-1',
    ]);
    running.push(run);
    const deadline = Date.now() + 20_000;
    while (!run.stderr().includes('5 enqueued')) {
      if (Date.now() > deadline || run.child.exitCode !== null)
        throw new Error(`not enqueued: ${run.stderr()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const killedAt = Date.now();
    await redis.stop();
    const { code, stderr } = await run.done;
    expect(code).toBe(1);
    expect(Date.now() - killedAt).toBeLessThan(20_000);
    expect(stderr).toContain(`Redis at redis://127.0.0.1:${redis.port}/0 stopped answering`);
    expect(stderr).toMatch(/Batch lost-1: all 5 rows are in it \(5 enqueued by this run\)/);
    expect(stderr).toContain('--batch lost-1');
  }, 60_000);
});
