/** Shared by the CLI file-safety and check suites: a bulk server, a temp dir, CSV files, the CLI. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { MERCHANT, payout } from '../bulk/server.js';
import { PAYOUT_CSV_HEADER, payoutCells, quotedLine } from '../helpers/payout-csv.js';
import { runCli, spawnCli } from './support.js';

export const PAYOUT_HEADER = PAYOUT_CSV_HEADER;

/** A CSV line of `payout(n)`, every cell quoted. */
export function payoutLine(n: number, reference = `bulk-${n}`): string {
  const p = payout(n, { reference });
  return quotedLine(payoutCells(p));
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'payinout-cli-files-'));
}

/** Writes `lines` under `dir/name` and returns its path. */
export function writeLines(dir: string, name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export function payoutsCsv(dir: string, name: string, count: number): string {
  return writeLines(dir, name, [
    PAYOUT_HEADER,
    ...Array.from({ length: count }, (_, i) => payoutLine(i + 1)),
  ]);
}

export function credentials(url: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PAYINOUT_USERNAME: MERCHANT.username,
    PAYINOUT_PASSWORD: MERCHANT.password,
    PAYINOUT_TOKEN: MERCHANT.token,
    PAYINOUT_BASE_URL: url,
    ...extra,
  };
}

export function readCsv(text: string | Buffer): Record<string, string>[] {
  return parse(text, { columns: true }) as Record<string, string>[];
}

/** C0 controls but tab and LF, DEL, C1 controls, bidi overrides: none may reach a terminal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding raw control characters is the test
export const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

export { runCli, spawnCli };
