/**
 * The CLI never loses a file and never lies about what it sent: `payouts send` and
 * `transactions check` spawned as processes against the simulator behind a node:http server,
 * with the results file pointed at the input under other names, at /dev/full, at a directory,
 * and at a pipe whose reader goes away mid-batch.
 */
import { execFileSync } from 'node:child_process';
import { createReadStream, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkServer, exactlyOnce, startBulkServer } from '../bulk/server.js';
import { credentials, payoutsCsv, readCsv, runCli, spawnCli, tempDir } from './files-support.js';
import { killAll } from './support.js';

let server: BulkServer;
let dir: string;
beforeEach(async () => {
  server = await startBulkServer();
  dir = tempDir();
});
afterEach(async () => {
  killAll();
  await server.close();
});

describe('--out that is the input file under another name', () => {
  it('is refused before anything is sent (exit 2) and the input is untouched: symlink, hard link, x/../FILE', async () => {
    const input = payoutsCsv(dir, 'june.csv', 3);
    const before = readFileSync(input, 'utf8');
    symlinkSync(input, join(dir, 'link.csv'));
    linkSync(input, join(dir, 'hard.csv'));
    mkdirSync(join(dir, 'x'));
    const outs = [input, join(dir, 'link.csv'), join(dir, 'hard.csv'), `${dir}/x/../june.csv`];
    const env = credentials(server.url);
    const runs = await Promise.all([
      ...outs.map((out) => runCli(['payouts', 'send', input, '--out', out], env)),
      ...outs.map((out) => runCli(['transactions', 'check', input, '--out', out], env)),
    ]);
    for (const [i, run] of runs.entries()) {
      expect(run.code, run.stderr).toBe(2);
      // "under another name" only when it is one: not for the input's own path, however spelled.
      const sameName = i % outs.length === 0 || i % outs.length === 3;
      expect(run.stderr).toMatch(
        sameName
          ? /is the input file .*june\.csv; choose another results file/
          : /is the input file .*june\.csv \(the same file on disk, under another name\)/,
      );
    }
    expect(readFileSync(input, 'utf8')).toBe(before);
    expect(server.log).toEqual([]);
  }, 60_000);
});

describe('a results file that cannot be written', () => {
  it('before sending (/dev/full, a directory): exit 2, nothing sent, says why', async () => {
    const input = payoutsCsv(dir, 'june.csv', 2);
    const env = credentials(server.url);
    const [full, directory, check] = await Promise.all([
      runCli(['payouts', 'send', input, '--out', '/dev/full'], env),
      runCli(['payouts', 'send', input, '--out', dir], env),
      runCli(['transactions', 'check', input, '--out', '/dev/full'], env),
    ]);
    expect(full.code).toBe(2);
    expect(full.stderr).toContain(
      'cannot write the results file /dev/full (ENOSPC: no space left on device); nothing was sent.',
    );
    expect(directory.code).toBe(2);
    expect(directory.stderr).toContain('(EISDIR');
    expect(check.code).toBe(2);
    expect(server.log).toEqual([]);
  }, 30_000);

  it('mid-batch (the reader goes away): no crash, every PayOut sent once, complete results in a fallback file, exit 1', async () => {
    const count = 120;
    const input = payoutsCsv(dir, 'big.csv', count);
    const fifo = join(dir, 'results.pipe');
    execFileSync('mkfifo', [fifo]);
    const cli = spawnCli(
      ['payouts', 'send', input, '--out', fifo, '--concurrency', '2'],
      credentials(server.url, { TMPDIR: dir }),
    );
    // Read the header, then close the pipe: every later write fails (EPIPE) while PayOuts go on.
    const reader = createReadStream(fifo);
    const first = await new Promise<string>((resolve) =>
      reader.once('data', (chunk) => resolve(String(chunk))),
    );
    reader.destroy();
    expect(first.startsWith('reference,outcome,ticket,status,error')).toBe(true);
    const [code] = await cli.exit;
    const { stdout, stderr } = cli.output();
    expect(code, stderr).toBe(1);
    expect(stderr).not.toMatch(/nothing was sent|usage|Unhandled|at .*\.ts:\d+/);
    const fallback = readdirSync(dir).find((name) => name.startsWith('payinout-results.pipe-'));
    expect(fallback, stderr).toBeDefined();
    const where = join(dir, fallback!);
    expect(stderr).toContain(
      `could not write the results file ${fifo} (EPIPE: broken pipe) during the batch, which went on: ${count} created, 0 recovered, 0 failed (of ${count}). The complete results are in ${where}.`,
    );
    expect(stdout).toContain(`${count} created, 0 recovered, 0 failed (of ${count}); results in ${where}`);
    const results = readCsv(readFileSync(where));
    expect(results.map((r) => r.reference)).toEqual(Array.from({ length: count }, (_, i) => `bulk-${i + 1}`));
    expect(results.every((r) => r.outcome === 'created' && r.ticket)).toBe(true);
    expect(
      exactlyOnce(
        server,
        results.map((r) => String(r.reference)),
      ),
    ).toEqual([]);
  }, 60_000);
});
