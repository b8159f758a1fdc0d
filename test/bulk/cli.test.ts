/**
 * `payinout payouts send` end to end: the CLI spawned as a process (tsx loader, src/), against a
 * node:http server in front of the simulator with faults injected.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PayOutCreateParamsFor } from '../../src/index.js';
import { PAYOUT_CSV_HEADER, payoutCells, quotedLine } from '../helpers/payout-csv.js';
import { type BulkServer, exactlyOnce, MERCHANT, payout, startBulkServer } from './server.js';

const ROOT = join(import.meta.dirname, '..', '..');
const HEADER = `${PAYOUT_CSV_HEADER},metadata`;

let server: BulkServer;
let dir: string;
beforeEach(async () => {
  server = await startBulkServer();
  dir = mkdtempSync(join(tmpdir(), 'payinout-bulk-'));
});
afterEach(() => server.close());

/** A row as a spreadsheet may hold it: valid or not (the CLI validates each one). */
type BadRow = Omit<PayOutCreateParamsFor<'CO'>, 'customer_data'> & {
  customer_data: { [K in keyof PayOutCreateParamsFor<'CO'>['customer_data']]?: string | undefined };
};

function csvLine(p: PayOutCreateParamsFor<'CO'> | BadRow, metadata = ''): string {
  return quotedLine([...payoutCells(p), metadata]);
}

function writeCsv(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${[HEADER, ...lines].join('\n')}\n`);
  return file;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function cli(
  args: string[],
  env: Record<string, string> = credentials(),
  onStderr?: (text: string, child: ReturnType<typeof spawn>) => void,
): Promise<Run> {
  return new Promise((resolve) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYINOUT_')));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
      cwd: ROOT,
      env: { ...clean, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => {
      stderr += c;
      onStderr?.(stderr, child);
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function credentials(): Record<string, string> {
  return {
    PAYINOUT_USERNAME: MERCHANT.username,
    PAYINOUT_PASSWORD: MERCHANT.password,
    PAYINOUT_TOKEN: MERCHANT.token,
    PAYINOUT_BASE_URL: server.url,
  };
}

const RESULT = ['reference', 'outcome', 'ticket', 'status', 'error'] as const;
const readResults = (file: string) =>
  parse(readFileSync(file), { columns: true }) as Record<(typeof RESULT)[number], string>[];
const posts = () => server.log.filter((l) => l.startsWith('POST')).length;

describe('payinout payouts send', () => {
  it('sends every row once under faults, writes the results file, and a re-run recovers everything', async () => {
    const items = Array.from({ length: 20 }, (_, i) => payout(i + 1));
    const file = writeCsv(
      'june.csv',
      items.map((p, i) => csvLine(p, i === 0 ? '{"batch":"june"}' : '')),
    );
    server.inject(
      { method: 'POST', reference: 'bulk-2', fault: { kind: 'drop-after-commit' } },
      { method: 'POST', reference: 'bulk-6', fault: { kind: 'status', status: 503 } },
      {
        method: 'GET',
        reference: 'bulk-9',
        fault: { kind: 'status', status: 429, headers: { 'retry-after': '1' } },
      },
    );
    const run = await cli(['payouts', 'send', file, '--concurrency', '3']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('20 created, 0 recovered, 0 failed (of 20)');
    // Not a terminal: one line per 10 %.
    expect(run.stderr.match(/^payouts: \d+% /gm)).toHaveLength(10);
    expect(run.stderr).toContain('payouts: 100% (20/20) created 20, recovered 0, failed 0');
    const results = readResults(join(dir, 'june.results.csv'));
    expect(Object.keys(results[0]!)).toEqual(['reference', 'outcome', 'ticket', 'status', 'error']);
    expect(results.map((r) => r.reference)).toEqual(items.map((p) => p.reference));
    expect(results.every((r) => r.outcome === 'created' && r.ticket && r.status === 'PENDING')).toBe(true);
    expect(
      exactlyOnce(
        server,
        items.map((p) => p.reference),
      ),
    ).toEqual([]);
    expect(server.sandbox.getTransaction('bulk-1')?.metadata).toEqual({ batch: 'june' });

    const sent = posts();
    const again = await cli(['payouts', 'send', file, '--out', join(dir, 'again.csv')]);
    expect(again.code, again.stderr).toBe(0);
    expect(readResults(join(dir, 'again.csv')).map((r) => r.outcome)).toEqual(items.map(() => 'recovered'));
    expect(posts()).toBe(sent);
  }, 60_000);

  it('fails invalid rows and reused references (exit 1), naming the field, and neutralises formulas', async () => {
    await server.client().payout.create(payout(3));
    const formula = payout(1, { reference: '=HYPERLINK("http://evil.example","x")' });
    const file = writeCsv('mixed.csv', [
      csvLine(formula),
      csvLine({ ...payout(2), amount: 'abc' as unknown as number }),
      csvLine(payout(3, { amount: 12_345 })),
      csvLine(payout(4), '[1,2]'),
    ]);
    const run = await cli(['payouts', 'send', file, '--out', join(dir, 'out.csv')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("line 3 (reference 'bulk-2'): amount: must be a number");
    expect(run.stderr).toContain("line 5 (reference 'bulk-4'): metadata: must be a JSON object");
    const text = readFileSync(join(dir, 'out.csv'), 'utf8');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    const results = readResults(join(dir, 'out.csv'));
    expect(results.map((r) => r.outcome)).toEqual(['created', 'failed', 'failed', 'failed']);
    expect(results[1]!.error).toBe('invalid row: amount: must be a number');
    expect(results[2]!.error).toMatch(/^Reference 'bulk-3' already exists .* different amount/);
    expect(server.posted.get('bulk-2')).toBeUndefined();
    expect(server.posted.get('bulk-4')).toBeUndefined();
  }, 30_000);

  it('--dry-run validates every row, reports each field, and sends nothing', async () => {
    const bad = {
      ...payout(2),
      customer_data: { ...payout(2).customer_data, account_type: 'SAVINGS', bank: '' },
    };
    const file = writeCsv('dry.csv', [csvLine(payout(1)), csvLine(bad), csvLine(payout(3))]);
    const run = await cli(['payouts', 'send', file, '--dry-run'], {});
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('dry run: 3 rows, 2 valid, 1 invalid; nothing was sent.');
    expect(run.stderr).toContain("line 3 (reference 'bulk-2'): bank: is required");
    expect(server.log).toEqual([]);
    expect(existsSync(join(dir, 'dry.results.csv'))).toBe(false);
    const clean = await cli(
      ['payouts', 'send', writeCsv('clean.csv', [csvLine(payout(1))]), '--dry-run'],
      {},
    );
    expect(clean.code).toBe(0);
  });

  it('--dry-run reports every error a row has in one pass, also when its country is unusable', async () => {
    const row = {
      ...payout(2),
      country: 'XX',
      amount: 'abc',
      ipn_url: 'not-a-url',
      customer_data: { ...payout(2).customer_data, bank: '' },
    } as unknown as BadRow;
    const run = await cli(['payouts', 'send', writeCsv('layers.csv', [csvLine(row)]), '--dry-run'], {});
    expect(run.code).toBe(1);
    const line = run.stderr.split('\n').find((l) => l.startsWith('line 2'));
    expect(line).toBe(
      "line 2 (reference 'bulk-2'): country: must be one of CO, PE, MX, GT, HN; amount: must be a number; ipn_url: must be an absolute http(s) URL; bank: is required",
    );
  });

  it('stops on Ctrl+C: rows in flight settle, rows not started are failed as not sent, the file is complete', async () => {
    const items = Array.from({ length: 150 }, (_, i) => payout(i + 1));
    const file = writeCsv(
      'stop.csv',
      items.map((p) => csvLine(p)),
    );
    let interrupted = false;
    const run = await cli(['payouts', 'send', file, '--concurrency', '2'], credentials(), (text, child) => {
      if (!interrupted && text.includes('payouts: 10%')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('stopping — no new PayOut starts');
    const results = readResults(join(dir, 'stop.results.csv'));
    expect(results.map((r) => r.reference)).toEqual(items.map((p) => p.reference));
    const created = results.filter((r) => r.outcome === 'created');
    const stopped = results.filter((r) => r.outcome === 'failed');
    expect(created.length).toBeGreaterThanOrEqual(15);
    expect(stopped.length).toBeGreaterThan(0);
    expect(created.length + stopped.length).toBe(150);
    expect(
      exactlyOnce(
        server,
        created.map((r) => r.reference),
      ),
    ).toEqual([]);
    for (const r of stopped) {
      expect(r.error).toMatch(/was not sent: the batch was aborted/);
      expect(server.posted.get(r.reference)).toBeUndefined();
    }
  }, 60_000);

  it('stops at the first refused credentials: exit 1, one summary line, every row failed as not sent', async () => {
    server.inject({ fault: { kind: 'status', status: 401 }, times: 1_000_000 });
    const items = Array.from({ length: 30 }, (_, i) => payout(i + 1));
    const file = writeCsv(
      'creds.csv',
      items.map((p) => csvLine(p)),
    );
    const run = await cli(['payouts', 'send', file, '--concurrency', '2']);
    expect(run.code).toBe(1);
    const said = run.stderr.split('\n').filter((l) => l.startsWith('payinout payouts send:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /the batch stopped because the service refused the credentials \(HTTP 401\)\. Check username/,
    );
    expect(run.stdout).toContain('0 created, 0 recovered, 30 failed (of 30)');
    expect(server.log.length).toBeLessThanOrEqual(2);
    const results = readResults(join(dir, 'creds.results.csv'));
    expect(results.map((r) => r.reference)).toEqual(items.map((p) => p.reference));
    expect(results.every((r) => r.outcome === 'failed')).toBe(true);
    expect(results.filter((r) => /was not sent: the batch stopped/.test(r.error))).toHaveLength(
      30 - server.log.length,
    );
    expect(run.stderr).not.toContain(MERCHANT.password);
  }, 30_000);

  it('exits 2 on usage errors without sending anything', async () => {
    const file = writeCsv('ok.csv', [csvLine(payout(1))]);
    const header = join(dir, 'header.csv');
    writeFileSync(header, 'reference,amount,acount_number\nx,1,2\n');
    const cases = await Promise.all([
      cli(['payouts', 'send']),
      cli(['payouts', 'send', join(dir, 'missing.csv')]),
      cli(['payouts', 'send', header]),
      cli(['payouts', 'send', file, '--concurrency', 'lots']),
      cli(['payouts', 'send', file], {}),
      cli(['payouts', 'send', file, '--out', file]),
      cli(['payouts']),
      cli(['payouts', 'send', file, '--max-retries', '1.5']),
    ]);
    expect(cases.map((c) => c.code)).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(cases[7]!.stderr).toContain('must be a whole number, 0 or more');
    expect(cases[5]!.stderr).toContain('is the input file');
    expect(readFileSync(file, 'utf8')).toContain(HEADER);
    expect(cases[2]!.stderr).toContain('unknown column(s) acount_number');
    expect(cases[4]!.stderr).toContain('PAYINOUT_USERNAME');
    expect(server.log).toEqual([]);
  }, 30_000);
});
