/**
 * `payinout transactions check FILE.csv [--column reference] [--concurrency N] [--out RESULTS.csv]`
 * (the public API contract, "Catching up after missed webhooks"; guide: node_modules/payinout/docs/catch-up.md or https://github.com/payinout/payinout/blob/main/docs/catch-up.md).
 *
 * Looks up the ticket or reference in one column of every row, with the engine behind
 * `client.transactions.getMany`, and writes one result per row, in file order:
 * id,outcome,ticket,status,amount,currency,error. Two streaming passes: the first checks the
 * header and counts the rows (a usage error is found before any lookup), the second looks up.
 * Exit 0 when every id was found, 1 when some were not (or failed), 2 on a usage error.
 */

import { createReadStream } from 'node:fs';
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { parse } from 'csv-parse';
import { MAX_CONCURRENCY } from '../bulk/batch.js';
import type { TransactionLookupProgress, TransactionLookupResult } from '../bulk/lookup-types.js';
import { runLookups } from '../bulk/lookups.js';
import { PaymentClient } from '../client.js';
import { ConfigurationError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import { closestKey } from '../schemas/suggest.js';
import { VERSION } from '../version.js';
import { UsageError } from './errors.js';
import { envHelp } from './help.js';
import { stopOnSignal } from './interrupt.js';
import { errorCell } from './payouts-csv.js';
import { type ProgressKind, progressView } from './payouts-progress.js';
import { openResultsFile, type ResultsFile } from './results-file.js';
import { printErr, printOut } from './terminal.js';

export const CHECK_COLUMNS = ['id', 'outcome', 'ticket', 'status', 'amount', 'currency', 'error'] as const;
const EXIT = { ok: 0, someNotFound: 1, usage: 2 } as const;
const LOOKUPS: ProgressKind = {
  label: 'lookups',
  counters: [
    ['found', 'found'],
    ['notFound', 'not found'],
    ['failed', 'failed'],
  ],
};

interface CheckOptions {
  column: string;
  concurrency: number;
  out?: string;
}

/** Adds `transactions check`; usage errors exit 2, help and version 0. */
export function registerTransactionsCommand(program: Command): void {
  const transactions = program
    .command('transactions')
    .description(`Transaction lookups in bulk: catching up after missed webhooks (${guide('catch-up.md')})`);
  transactions
    .command('check')
    .description('Look up the ticket or reference of every CSV row and write what the service shows now')
    .argument('<file>', 'CSV file with a header line; one column holds the ticket or reference')
    .option('--column <name>', 'the column holding the ticket or reference', 'reference')
    .option('--concurrency <n>', `lookups in flight at once, 1-${MAX_CONCURRENCY}`, concurrencyOption, 4)
    .option(
      '--out <results.csv>',
      'results file (default FILE.results.csv; FILE.results.1.csv, … when a previous run left one)',
    )
    .addHelpText(
      'after',
      `\nResults: ${CHECK_COLUMNS.join(',')}; outcome is found, not_found or failed.\n${envHelp}Exit: 0 every id found, 1 some not found or failed, 2 usage error.\n\nExample:\n  payinout transactions check pending-orders.csv --column order_id --out now.csv\n`,
    )
    .action(async (file: string, options: CheckOptions) => {
      process.exitCode = await check(file, options);
    });
  for (const command of [transactions, ...transactions.commands]) {
    command.exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(EXIT.usage, error.code, error.message);
    });
  }
}

function concurrencyOption(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_CONCURRENCY) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  return n;
}

async function check(file: string, options: CheckOptions): Promise<number> {
  let ready: { client: PaymentClient; rows: number; results: ResultsFile; out: string };
  try {
    const client = PaymentClient.fromEnv(process.env, {
      appInfo: { name: 'payinout-cli', version: VERSION },
    });
    const rows = await countRows(file, options.column);
    const results = await openResultsFile(options.out, file, CHECK_COLUMNS);
    ready = { client, rows, out: results.path, results };
  } catch (error) {
    printErr(`payinout transactions check: ${(error as Error).message}\n`);
    return error instanceof UsageError || error instanceof ConfigurationError
      ? EXIT.usage
      : EXIT.someNotFound;
  }
  return lookUpAndReport(file, options, ready);
}

async function lookUpAndReport(
  file: string,
  options: CheckOptions,
  { client, rows, out, results }: { client: PaymentClient; rows: number; results: ResultsFile; out: string },
): Promise<number> {
  const controller = new AbortController();
  const view = progressView(rows, process.stderr, LOOKUPS);
  const undo = stopOnSignal(
    controller,
    'payinout transactions check: stopping — no new lookup starts; the rest are written as failed',
    () => view.stop(),
  );
  const input: { unreadable?: string } = {};
  const statuses = new Map<string, number>();
  let progress: TransactionLookupProgress;
  try {
    progress = await runLookups((id, o) => client.transactions.get(id, o), ids(file, options.column, input), {
      concurrency: options.concurrency,
      signal: controller.signal,
      total: rows,
      onProgress: (p) => view.update(p),
      sink: (result) => {
        if (result.transaction) {
          const status = String(result.transaction.status);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
        return results.write(cells(result));
      },
    });
  } finally {
    view.stop();
    undo();
  }
  const place = await results.close();
  if (input.unreadable)
    printErr(`payinout transactions check: ${input.unreadable}; the rows after it were not looked up.\n`);
  if (place.failure) {
    printErr(
      `payinout transactions check: could not write the results file ${out} (${place.failure}); the complete results are in ${place.path}.\n`,
    );
  }
  printOut(`${summary(progress, statuses)}; results in ${place.path}\n`);
  const allFound = progress.found === progress.done && !input.unreadable && !place.failure;
  return allFound ? EXIT.ok : EXIT.someNotFound;
}

function summary(p: TransactionLookupProgress, statuses: Map<string, number>): string {
  const byStatus = [...statuses].map(([status, n]) => `${n} ${status}`).join(', ');
  return `${p.found} found${byStatus ? ` (${byStatus})` : ''}, ${p.notFound} not found, ${p.failed} failed (of ${p.done})`;
}

function cells(r: TransactionLookupResult): string[] {
  const t = r.transaction;
  const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));
  return [
    r.id,
    r.outcome,
    text(t?.ticket),
    text(t?.status),
    text(t?.amount),
    text(t?.currency),
    errorCell(r.error),
  ];
}

/** The rows' ids, streaming; throws UsageError when the file or its header is unusable. */
async function* readIds(file: string, column: string): AsyncGenerator<string> {
  const parser = parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true });
  createReadStream(file)
    .on('error', (error) => parser.destroy(error))
    .pipe(parser);
  let at: number | undefined;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      if (at === undefined) {
        at = columnIndex(record, column, file);
        continue;
      }
      yield record[at] ?? '';
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as { code?: string }).code;
    throw new UsageError(
      code?.startsWith('E') && !code.startsWith('CSV')
        ? `cannot read ${file} (${code}).`
        : `${file} is not a readable CSV file: ${(error as Error).message}`,
    );
  }
  if (at === undefined)
    throw new UsageError(`${file} is empty; its first line must be a header naming a '${column}' column.`);
}

function columnIndex(header: string[], column: string, file: string): number {
  const names = header.map((h) => h.toLowerCase());
  const at = names.indexOf(column.toLowerCase());
  if (at >= 0) return at;
  const match = closestKey(column, header);
  throw new UsageError(
    `${file} has no '${column}' column${match ? ` (did you mean --column ${match}?)` : ''}. Its header: ${header.join(',')}. Name the column that holds the ticket or reference with --column.`,
  );
}

/** First pass: the header is checked and the rows counted before any lookup. */
async function countRows(file: string, column: string): Promise<number> {
  let rows = 0;
  for await (const _ of readIds(file, column)) rows++;
  return rows;
}

/** Second pass: a file that stops reading mid-run ends the run, said, not thrown. */
async function* ids(file: string, column: string, input: { unreadable?: string }): AsyncGenerator<string> {
  try {
    yield* readIds(file, column);
  } catch (error) {
    input.unreadable = (error as Error).message;
  }
}
