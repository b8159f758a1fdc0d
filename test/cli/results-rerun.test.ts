/**
 * The results file of `transactions check` and `payouts send`: one default name for both
 * (FILE.results.csv), and a re-run keeps the file of the run before (FILE.results.1.csv, …),
 * the summary naming the file written. `--out` still names (and rewrites) a file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkServer, payout, startBulkServer } from '../bulk/server.js';
import { PAYOUT_CSV_HEADER, payoutCells, quotedLine } from '../helpers/payout-csv.js';
import { credentials, readCsv, runCli, tempDir, writeLines } from './files-support.js';
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

describe('a re-run keeps the previous results file', () => {
  it('transactions check: june.results.csv, then june.results.1.csv, then .2; each run its own results', async () => {
    await server.client().payout.create(payout(1));
    const input = writeLines(dir, 'june.csv', ['reference', 'bulk-1']);
    const env = credentials(server.url);
    const first = await runCli(['transactions', 'check', input], env);
    expect(first.stdout).toContain(`results in ${join(dir, 'june.results.csv')}`);
    const before = readFileSync(join(dir, 'june.results.csv'), 'utf8');
    await server.client().sandbox.confirmPayOut({
      transaction_id: 'bulk-1',
      payment_method: 'BANK_TRANSFER',
      status: 'APPROVED',
    });

    const second = await runCli(['transactions', 'check', input], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`results in ${join(dir, 'june.results.1.csv')}`);
    expect(readFileSync(join(dir, 'june.results.csv'), 'utf8')).toBe(before); // untouched
    expect(readCsv(before)[0]!.status).toBe('PENDING');
    expect(readCsv(readFileSync(join(dir, 'june.results.1.csv'), 'utf8'))[0]!.status).toBe('APPROVED');

    const third = await runCli(['transactions', 'check', input], env);
    expect(third.stdout).toContain(`results in ${join(dir, 'june.results.2.csv')}`);

    const named = await runCli(['transactions', 'check', input, '--out', join(dir, 'june.results.csv')], env);
    expect(named.stdout).toContain(`results in ${join(dir, 'june.results.csv')}`);
    expect(readCsv(readFileSync(join(dir, 'june.results.csv'), 'utf8'))[0]!.status).toBe('APPROVED');
  }, 60_000);

  it('payouts send: the same names (a re-run recovers into june.results.1.csv)', async () => {
    const input = writeLines(dir, 'june.csv', [PAYOUT_CSV_HEADER, quotedLine(payoutCells(payout(7)))]);
    const env = credentials(server.url);
    const first = await runCli(['payouts', 'send', input], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`results in ${join(dir, 'june.results.csv')}`);
    const again = await runCli(['payouts', 'send', input], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`results in ${join(dir, 'june.results.1.csv')}`);
    expect(readCsv(readFileSync(join(dir, 'june.results.csv'), 'utf8'))[0]!.outcome).toBe('created');
    expect(readCsv(readFileSync(join(dir, 'june.results.1.csv'), 'utf8'))[0]!.outcome).toBe('recovered');
  }, 60_000);
});
