/**
 * `payinout payouts send FILE.csv [--concurrency N] [--out RESULTS.csv] [--dry-run]`
 * (the public API contract, "Bulk payouts"; guide: docs/bulk-payouts.md).
 *
 * Two streaming passes over the file: the first checks the header and every row (nothing is sent
 * if the file itself is unusable; --dry-run stops there), the second feeds the rows to the batch
 * engine behind `payout.createMany` and writes each result as it settles. Exit 0 when no row
 * failed, 1 when some did, 2 on a usage error.
 */
import { resolve } from 'node:path';
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { MAX_CONCURRENCY, runPayOutBatch } from '../bulk/batch.js';
import { RejectedItem } from '../bulk/item.js';
import type { BatchClient } from '../bulk/types.js';
import { ConfigurationError } from '../core/errors.js';
import { PaymentClient } from '../node/client.js';
import {
  CsvFileError,
  describeRow,
  openResults,
  type ResultsWriter,
  readRows,
  rowError,
} from './payouts-csv.js';
import { progressView } from './payouts-progress.js';

interface SendOptions {
  concurrency: number;
  maxRetries: number;
  out?: string;
  dryRun?: boolean;
}

export const EXIT = { ok: 0, someFailed: 1, usage: 2 } as const;

/** Adds `payouts send` to a commander program; usage errors exit 2, help and version 0. */
export function registerPayoutsCommand(program: Command): void {
  const payouts = program
    .command('payouts')
    .description('PayOut disbursements in bulk (docs/bulk-payouts.md)');
  payouts
    .command('send')
    .description(
      'Send one PayOut per CSV row; safe to run again (existing references are recovered, never sent twice)',
    )
    .argument(
      '<file>',
      'CSV file: header reference,amount,currency,country,payment_method,ipn_url,<customer_data fields>[,metadata]',
    )
    .option('--concurrency <n>', `PayOuts in flight at once, 1-${MAX_CONCURRENCY}`, concurrencyOption, 4)
    .option(
      '--max-retries <n>',
      'retries per row after a lost answer, 5xx or 408, each from a fresh lookup',
      retriesOption,
      2,
    )
    .option('--out <results.csv>', 'results file (default FILE.results.csv)')
    .option('--dry-run', 'validate every row and send nothing')
    .showHelpAfterError('(payinout payouts send --help shows the usage)')
    .addHelpText(
      'after',
      '\nCredentials: PAYINOUT_USERNAME, PAYINOUT_PASSWORD, PAYINOUT_TOKEN, PAYINOUT_BASE_URL.\nExit: 0 no row failed, 1 some failed, 2 usage error.',
    )
    .action(async (file: string, options: SendOptions) => {
      process.exitCode = await send(file, options);
    });
  for (const command of [payouts, ...payouts.commands]) {
    command.exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(EXIT.usage, error.code, error.message);
    });
  }
}

function concurrencyOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new InvalidArgumentError(`must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  return n;
}

function retriesOption(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new InvalidArgumentError('must be a whole number, 0 or more.');
  return n;
}

async function send(file: string, options: SendOptions): Promise<number> {
  let results: ResultsWriter | undefined;
  try {
    // Credentials first: a send without them fails before the file is read.
    const client = options.dryRun
      ? undefined
      : PaymentClient.fromEnv(process.env, { maxRetries: options.maxRetries });
    const check = await checkFile(file);
    if (!client) {
      process.stdout.write(
        `dry run: ${check.rows} rows, ${check.rows - check.invalid} valid, ${check.invalid} invalid; nothing was sent.\n`,
      );
      return check.invalid ? EXIT.someFailed : EXIT.ok;
    }
    const out = options.out ?? `${file.replace(/\.csv$/i, '')}.results.csv`;
    if (resolve(out) === resolve(file)) throw new CsvFileError('--out must not be the input file.');
    results = await openResults(out);
    const summary = await sendRows(file, check.rows, options, client, results);
    await results.close();
    // A batch-wide failure (e.g. refused credentials) is said once, not once per row.
    if (summary.stopped) process.stderr.write(`payinout payouts send: ${summary.stopped}\n`);
    process.stdout.write(
      `${summary.created} created, ${summary.recovered} recovered, ${summary.failed} failed (of ${summary.total}); results in ${out}\n`,
    );
    return summary.failed ? EXIT.someFailed : EXIT.ok;
  } catch (error) {
    await results?.close().catch(() => undefined);
    process.stderr.write(`payinout payouts send: ${(error as Error).message}\n`);
    const usage = error instanceof CsvFileError || error instanceof ConfigurationError || isFsError(error);
    return usage ? EXIT.usage : EXIT.someFailed;
  }
}

/** First pass: header, row count, and every row's field errors on stderr. */
async function checkFile(file: string): Promise<{ rows: number; invalid: number }> {
  let rows = 0;
  let invalid = 0;
  for await (const row of readRows(file)) {
    rows++;
    if (row.issues) {
      invalid++;
      process.stderr.write(`${describeRow(row)}\n`);
    }
  }
  return { rows, invalid };
}

async function sendRows(
  file: string,
  total: number,
  { concurrency, maxRetries }: SendOptions,
  client: PaymentClient,
  results: ResultsWriter,
) {
  const controller = new AbortController();
  const view = progressView(total);
  // Ctrl+C, or a supervisor's SIGTERM: stop starting rows, settle the ones in flight.
  const onSignal = (signal: NodeJS.Signals) => {
    if (controller.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    view.stop();
    process.stderr.write(
      'payinout payouts send: stopping — no new PayOut starts, the ones in flight are settled (Ctrl+C again to quit at once)\n',
    );
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const batchClient: BatchClient = {
    create: (params, options) => client.payout.create(params, options),
    lookup: (reference, options) => client.transactions.get(reference, options),
    maxRetries,
  };
  try {
    return await runPayOutBatch(batchClient, items(file), {
      concurrency,
      signal: controller.signal,
      total,
      onProgress: (p) => view.update(p),
      sink: (result) => results.write(result),
    });
  } finally {
    view.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Second pass: valid rows as PayOut params, invalid ones as already-failed items. */
async function* items(file: string): AsyncGenerator<unknown> {
  for await (const row of readRows(file)) {
    yield row.issues ? new RejectedItem(row.reference, rowError(row)) : row.params;
  }
}

function isFsError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
