/**
 * `payinout transactions check` end to end: the CLI spawned as a process against the simulator
 * behind a node:http server that can fail lookups.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type BulkServer, payout, startBulkServer } from '../bulk/server.js';
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

async function seed(count: number): Promise<string[]> {
  const client = server.client();
  const tickets: string[] = [];
  for (let n = 1; n <= count; n++) tickets.push((await client.payout.create(payout(n))).ticket);
  return tickets;
}

describe('payinout transactions check', () => {
  it('writes one result per row in file order, by the named column, and exits 1 when some are not found or failed', async () => {
    const tickets = await seed(3);
    server.inject({ method: 'GET', reference: 'bulk-3', fault: { kind: 'status', status: 503 }, times: 10 });
    const input = writeLines(dir, 'orders.csv', [
      'order_id,Reference,note',
      `a,bulk-1,x`,
      `b,${tickets[1]},by ticket`,
      `c,missing-9,x`,
      `d,bulk-3,x`,
      `e,,blank`,
    ]);
    const run = await runCli(
      ['transactions', 'check', input, '--column', 'reference', '--concurrency', '2'],
      credentials(server.url),
    );
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `2 found (2 PENDING), 1 not found, 2 failed (of 5); results in ${join(dir, 'orders.results.csv')}`,
    );
    expect(run.stderr).toContain('lookups: 100% (5/5) found 2, not found 1, failed 2');
    const text = readFileSync(join(dir, 'orders.results.csv'), 'utf8');
    expect(text.split('\n')[0]).toBe('id,outcome,ticket,status,amount,currency,error');
    const results = readCsv(text);
    expect(results.map((r) => [r.id, r.outcome])).toEqual([
      ['bulk-1', 'found'],
      [tickets[1], 'found'],
      ['missing-9', 'not_found'],
      ['bulk-3', 'failed'],
      ['', 'failed'],
    ]);
    expect(results[0]).toMatchObject({
      ticket: tickets[0],
      status: 'PENDING',
      amount: '10001',
      currency: 'COP',
      error: '',
    });
    expect(results[1]!.ticket).toBe(tickets[1]);
    expect(results[2]!.error).toMatch(/HTTP 404/);
    expect(results[3]!.error).toMatch(/503/);
    expect(results[4]!.error).toMatch(/must be a non-empty string/);
  }, 30_000);

  it('exits 0 when every id is found, and shows the final statuses in the summary', async () => {
    await seed(2);
    await server.client().sandbox.confirmPayOut({
      transaction_id: 'bulk-2',
      payment_method: 'BANK_TRANSFER',
      status: 'APPROVED',
    });
    const input = writeLines(dir, 'ok.csv', ['reference', 'bulk-1', 'bulk-2']);
    const out = join(dir, 'now.csv');
    const run = await runCli(['transactions', 'check', input, '--out', out], credentials(server.url));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(
      `2 found (1 PENDING, 1 APPROVED), 0 not found, 0 failed (of 2); results in ${out}`,
    );
    expect(readCsv(readFileSync(out)).map((r) => r.status)).toEqual(['PENDING', 'APPROVED']);
  }, 30_000);

  it('exits 2 on usage errors, before any lookup', async () => {
    const input = writeLines(dir, 'ids.csv', ['order_id', 'bulk-1']);
    const env = credentials(server.url);
    const runs = await Promise.all([
      runCli(['transactions', 'check', input], env),
      runCli(['transactions', 'check', input, '--column', 'order_id', '--concurrency', '0'], env),
      runCli(['transactions', 'check', input, '--column', 'order_id', '--concurrency', '65'], env),
      runCli(['transactions', 'check', join(dir, 'absent.csv')], env),
      runCli(['transactions', 'check', input, '--column', 'order_id'], {}),
      runCli(['transactions', 'check', writeLines(dir, 'empty.csv', [''])], env),
      runCli(['transactions', 'check'], env),
      runCli(['transactions'], env),
    ]);
    expect(runs.map((r) => r.code)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(runs[0]!.stderr).toContain("ids.csv has no 'reference' column. Its header: order_id.");
    expect(runs[1]!.stderr).toContain('must be a whole number from 1 to 64');
    expect(runs[3]!.stderr).toContain('cannot read');
    expect(runs[4]!.stderr).toContain('PAYINOUT_USERNAME');
    expect(runs[5]!.stderr).toContain('is empty');
    expect(server.log).toEqual([]);
  }, 30_000);
});
