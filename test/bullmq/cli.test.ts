/**
 * The queue from the command line, as processes: `payinout payouts worker` (two of them) with the
 * PAYINOUT_* credentials, and `payinout payouts send FILE.csv --queue …` waiting for them and
 * writing the results CSV; a usage error enqueues nothing; SIGTERM lets a worker finish, exit 0.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PAYOUT_CSV_HEADER, payoutCells } from '../helpers/payout-csv.js';
import { MERCHANT, payout, type QueueServer, startQueueServer } from './server.js';
import { REDIS_URL, ROOT, requireRedis, skipQueue, type TestQueue, testQueue } from './support.js';

function csv(rows: ReturnType<typeof payout>[]): string {
  const file = join(dir, 'payouts.csv');
  const lines = rows.map((p) => payoutCells(p).join(','));
  writeFileSync(file, `${[PAYOUT_CSV_HEADER, ...lines].join('\n')}\n`);
  return file;
}

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; stdout: string; stderr: string }>;
  stderr(): string;
}

function cli(args: string[], credentials = true): Run {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYINOUT_')));
  const env = credentials
    ? {
        ...clean,
        PAYINOUT_USERNAME: MERCHANT.username,
        PAYINOUT_PASSWORD: MERCHANT.password,
        PAYINOUT_TOKEN: MERCHANT.token,
        PAYINOUT_BASE_URL: server.url,
      }
    : clean;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c) => (stdout += c));
  child.stderr?.on('data', (c) => (stderr += c));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  return { child, done, stderr: () => stderr };
}

/** The queue options of `q`: its own Redis database is not needed, its own name and prefix are. */
const queueArgs = () => ['--queue', REDIS_URL, '--queue-name', q.name];

let server: QueueServer;
let q: TestQueue;
let dir: string;
const running: Run[] = [];
beforeAll(requireRedis);
beforeEach(async () => {
  server = await startQueueServer();
  q = testQueue('bull');
  dir = mkdtempSync(join(tmpdir(), 'payinout-queue-'));
});
afterEach(async () => {
  for (const run of running.splice(0)) {
    if (run.child.exitCode === null) run.child.kill('SIGKILL');
    await run.done;
  }
  await q.cleanup();
  await server.close();
});

async function workerReady(run: Run): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!run.stderr().includes('settling PayOuts')) {
    if (Date.now() > deadline || run.child.exitCode !== null)
      throw new Error(`worker did not start: ${run.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skipQueue)('payinout payouts send --queue / payouts worker', () => {
  it('two workers settle the file once each; send waits and writes the results CSV; SIGTERM exits 0', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => payout(i + 1));
    const file = csv(rows);
    const workers = [
      cli(['payouts', 'worker', ...queueArgs(), '--concurrency', '3']),
      cli(['payouts', 'worker', ...queueArgs()]),
    ];
    running.push(...workers);
    await Promise.all(workers.map(workerReady));
    // The sender holds no credential: the workers have theirs.
    const send = cli(
      ['payouts', 'send', file, ...queueArgs(), '--batch', 'cli-1', '--out', join(dir, 'r.csv')],
      false,
    );
    const sent = await send.done;
    expect(sent.stderr).toContain('batch cli-1: 30 enqueued');
    expect(sent.stdout).toContain('30 created, 0 recovered, 0 failed (of 30)');
    expect(sent.code).toBe(0);
    const results = parse(readFileSync(join(dir, 'r.csv')), { columns: true }) as Record<string, string>[];
    expect(Object.keys(results[0]!)).toEqual(['reference', 'outcome', 'ticket', 'status', 'error']);
    expect(results.map((r) => r.reference)).toEqual(rows.map((r) => r.reference));
    expect(results.every((r) => r.outcome === 'created' && r.ticket !== '')).toBe(true);
    for (const r of rows) expect(server.posted.get(r.reference)).toBe(1);
    // The same file, same batch: nothing added, the results are read back.
    const again = await cli(
      ['payouts', 'send', file, ...queueArgs(), '--batch', 'cli-1', '--out', join(dir, 'r2.csv')],
      false,
    ).done;
    expect(again.stderr).toContain('0 enqueued, 30 already in the batch');
    expect(again.code).toBe(0);
    for (const w of workers) w.child.kill('SIGTERM');
    const ends = await Promise.all(workers.map((w) => w.done));
    expect(ends.map((e) => e.code)).toEqual([0, 0]);
    expect(ends[0]?.stderr).toContain('stopped;');
  }, 90_000);

  it('an invalid row or a repeated reference is a usage error: exit 2, nothing enqueued', async () => {
    const rows = [payout(1), payout(2), payout(1)];
    const run = await cli(['payouts', 'send', csv(rows), ...queueArgs()], false).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 4: reference 'bulk-1' repeats line 2/);
    expect(run.stderr).toContain('nothing was enqueued');
    expect(await q.queue.count()).toBe(0);
    const bad = await cli(['payouts', 'send', csv([payout(1)]), '--queue', 'http://localhost:6379'], false)
      .done;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('redis://');
  }, 30_000);

  it('the service’s words reach the worker’s output neutralised: an escape sequence or a bidi override is shown, not acted on', async () => {
    // What a hostile or broken upstream could answer: retitle the terminal, reverse the line.
    const message = 'refused \u001b]0;pwned\u0007 \u001b[2J \u202eevil';
    server.inject = (request) => (request.method === 'POST' ? { status: 422, message } : undefined);
    const worker = cli(['payouts', 'worker', ...queueArgs()]);
    running.push(worker);
    await workerReady(worker);
    const sent = await cli(
      ['payouts', 'send', csv([payout(1)]), ...queueArgs(), '--out', join(dir, 'r.csv')],
      false,
    ).done;
    expect(sent.code).toBe(1);
    worker.child.kill('SIGTERM');
    const { stderr, code } = await worker.done;
    expect(code).toBe(0);
    expect(stderr).toContain('bulk-1 failed:');
    expect(stderr).toContain('\\u001b]0;pwned\\u0007');
    expect(stderr).toContain('\\u202eevil');
    for (const out of [stderr, sent.stderr, sent.stdout]) {
      for (const raw of ['\u001b', '\u0007', '\u202e']) expect(out).not.toContain(raw);
    }
  }, 60_000);

  it('one refusal everywhere: the first 5 PayOuts of that cause are listed, the rest counted by cause', async () => {
    const message = 'amount exceeds the available balance';
    server.inject = (request) =>
      request.method === 'POST' ? { status: 422, message, error: 'INSUFFICIENT_FUNDS' } : undefined;
    const worker = cli(['payouts', 'worker', ...queueArgs()]);
    running.push(worker);
    await workerReady(worker);
    const rows = Array.from({ length: 12 }, (_, i) => payout(i + 1));
    const sent = await cli(['payouts', 'send', csv(rows), ...queueArgs(), '--out', join(dir, 'r.csv')], false)
      .done;
    expect(sent.stdout).toContain('0 created, 0 recovered, 12 failed (of 12)');
    worker.child.kill('SIGTERM');
    const { stderr, code } = await worker.done;
    expect(code).toBe(0);
    const listed = stderr.split('\n').filter((line) => / failed: /.test(line));
    expect(listed).toHaveLength(5);
    expect(listed.every((line) => line.includes(message))).toBe(true);
    expect(stderr).toMatch(
      /more PayOuts failed with \w+ INSUFFICIENT_FUNDS: counted in the summary lines, not listed/,
    );
    expect(stderr).toMatch(
      /stopped; 0 created, 0 recovered, 12 failed \(not listed: \w+ INSUFFICIENT_FUNDS 7\)/,
    );
    // Every PayOut's own result still says why.
    const results = parse(readFileSync(join(dir, 'r.csv')), { columns: true }) as Record<string, string>[];
    expect(results.filter((r) => r.error?.includes(message))).toHaveLength(12);
  }, 60_000);

  it('a worker without credentials is a usage error (exit 2) that names them', async () => {
    const run = await cli(['payouts', 'worker', ...queueArgs()], false).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('PAYINOUT_');
  }, 30_000);
});
