/**
 * `payinout payouts send FILE.csv [--concurrency N] [--out RESULTS.csv] [--dry-run]`
 * (the public API contract, "Bulk payouts"; guide: node_modules/payinout/docs/bulk-payouts.md or https://github.com/payinout/payinout/blob/main/docs/bulk-payouts.md).
 *
 * Two streaming passes over the file: the first checks the header and every row (nothing is sent
 * if the file itself is unusable; --dry-run stops there), the second feeds the rows to the batch
 * engine behind `payout.createMany` and writes each result as it settles. Exit 0 when no row
 * failed, 1 when some did, 2 on a usage error.
 */
import { type Command, CommanderError, InvalidArgumentError } from 'commander';
import { type BatchSummary, MAX_CONCURRENCY, runPayOutBatch } from '../bulk/batch.js';
import { RejectedItem } from '../bulk/item.js';
import { BATCH_CLIENT, type BatchClient } from '../bulk/types.js';
import { ConfigurationError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import { PaymentClient } from '../node/client.js';
import { UsageError } from './errors.js';
import { stopOnSignal } from './interrupt.js';
import { CsvFileError, describeRow, RESULT_COLUMNS, readRows, resultCells, rowError } from './payouts-csv.js';
import { progressView } from './payouts-progress.js';
import { registerPayoutsWorker } from './payouts-worker.js';
import { batchIdOption, type QueueConnection, queueName, queueUrl } from './queue-connection.js';
import { openResultsFile, type ResultsFile } from './results-file.js';
import { printErr, printOut } from './terminal.js';

interface SendOptions {
  concurrency: number;
  maxRetries: number;
  out?: string;
  dryRun?: boolean;
  /** `--queue`: enqueue for `payouts worker`s instead of sending from this process. */
  queue?: QueueConnection;
  queueName: string;
  batch?: string;
}

export const EXIT = { ok: 0, someFailed: 1, usage: 2 } as const;

/** Adds `payouts send` to a commander program; usage errors exit 2, help and version 0. */
export function registerPayoutsCommand(program: Command): void {
  const payouts = program
    .command('payouts')
    .description(`PayOut disbursements in bulk (${guide('bulk-payouts.md')})`);
  registerSend(payouts);
  registerPayoutsWorker(payouts);
  for (const command of [payouts, ...payouts.commands]) {
    command.exitOverride((error) => {
      throw error.exitCode === 0 ? error : new CommanderError(EXIT.usage, error.code, error.message);
    });
  }
}

function registerSend(payouts: Command): void {
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
      'retries per row after a lost answer, 5xx or 408; a lost answer is looked up before any resend',
      retriesOption,
      2,
    )
    .option(
      '--out <results.csv>',
      'results file (default FILE.results.csv; FILE.results.1.csv, … when a previous run left one)',
    )
    .option('--dry-run', 'validate every row and send nothing')
    .option(
      '--queue <redis-url>',
      'enqueue the rows for `payouts worker`s (redis://HOST:PORT[/DB]) and wait for them',
      queueUrl,
    )
    .option('--queue-name <name>', 'with --queue: the queue name', queueName, 'payouts')
    .option(
      '--batch <id>',
      'with --queue: the batch id (default: a new one); the same id never enqueues a row twice',
      batchIdOption,
    )
    .showHelpAfterError('(payinout payouts send --help shows the usage)')
    .addHelpText(
      'after',
      '\nCredentials: PAYINOUT_USERNAME, PAYINOUT_PASSWORD, PAYINOUT_TOKEN, PAYINOUT_BASE_URL.\nExit: 0 no row failed, 1 some failed, 2 usage error.',
    )
    .action(async (file: string, options: SendOptions, command: Command) => {
      process.exitCode = await sendCommand(file, options, command);
    });
}

/** `payouts send`: on this machine, or through the queue (whose workers own these two settings). */
async function sendCommand(file: string, options: SendOptions, command: Command): Promise<number> {
  if (!options.queue) return send(file, options);
  for (const name of ['concurrency', 'maxRetries']) {
    if (command.getOptionValueSource(name) === 'cli') {
      printErr(
        `payinout payouts send: --${name === 'maxRetries' ? 'max-retries' : name} is the workers' setting with --queue (payouts worker --concurrency); ignored here\n`,
      );
    }
  }
  const { sendToQueue } = await import('./payouts-queue.js');
  return sendToQueue(file, { ...options, queue: options.queue });
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
  let ready: Awaited<ReturnType<typeof prepare>>;
  try {
    ready = await prepare(file, options);
  } catch (error) {
    printErr(`payinout payouts send: ${(error as Error).message}\n`);
    return isUsage(error) ? EXIT.usage : EXIT.someFailed;
  }
  if (!ready) return EXIT.ok;
  if ('invalid' in ready) return EXIT.someFailed;
  return sendAndReport(file, ready, options);
}

/**
 * Everything that can be a usage error, before the first PayOut: credentials, the whole file,
 * and the results file opened, checked and headed (a bad --out is found while nothing moved).
 * `undefined` or `{ invalid }` for a dry run.
 */
async function prepare(file: string, options: SendOptions) {
  // Credentials first: a send without them fails before the file is read.
  const client = options.dryRun
    ? undefined
    : PaymentClient.fromEnv(process.env, { maxRetries: options.maxRetries });
  const check = await checkFile(file);
  if (!client) {
    printOut(
      `dry run: ${check.rows} rows, ${check.rows - check.invalid} valid, ${check.invalid} invalid; nothing was sent.\n`,
    );
    return check.invalid ? { invalid: check.invalid } : undefined;
  }
  const results = await openResultsFile(options.out, file, RESULT_COLUMNS);
  return { client, rows: check.rows, out: results.path, results };
}

/** From the first PayOut on, every ending says what was sent and where the results are: exit 0 or 1. */
async function sendAndReport(
  file: string,
  { client, rows, out, results }: { client: PaymentClient; rows: number; out: string; results: ResultsFile },
  options: SendOptions,
): Promise<number> {
  const input: InputState = {};
  let summary: BatchSummary;
  try {
    summary = await sendRows(file, rows, options, client, results, input);
  } catch (error) {
    // Not expected (the batch settles every row, the writer keeps its failures): still, say where
    // the results written so far are, and never call it a usage error once rows were sent.
    const place = await results.close();
    printErr(
      `payinout payouts send: the batch stopped on an unexpected error: ${(error as Error)?.message ?? String(error)}. The results of the rows settled before it are in ${place.path}; run the same file again to finish: PayOuts already sent are recovered, never sent twice.\n`,
    );
    return EXIT.someFailed;
  }
  const place = await results.close();
  // A batch-wide failure (e.g. refused credentials) is said once, not once per row.
  if (summary.stopped) printErr(`payinout payouts send: ${summary.stopped}\n`);
  if (input.unreadable) {
    printErr(
      `payinout payouts send: ${input.unreadable}; the rows after it were not sent. Run the same command again once the file reads: PayOuts already sent are recovered, never sent twice.\n`,
    );
  }
  if (place.failure) {
    printErr(
      `payinout payouts send: could not write the results file ${out} (${place.failure}) during the batch, which went on: ${counts(summary)}. The complete results are in ${place.path}. Running the same file again is safe: PayOuts already sent are recovered, never sent twice.\n`,
    );
  }
  printOut(`${counts(summary)}; results in ${place.path}\n`);
  return summary.failed || place.failure || input.unreadable ? EXIT.someFailed : EXIT.ok;
}

function counts(s: BatchSummary): string {
  return `${s.created} created, ${s.recovered} recovered, ${s.failed} failed (of ${s.total})`;
}

/** First pass: header, row count, and every row's field errors on stderr. */
async function checkFile(file: string): Promise<{ rows: number; invalid: number }> {
  let rows = 0;
  let invalid = 0;
  for await (const row of readRows(file)) {
    rows++;
    if (row.issues) {
      invalid++;
      printErr(`${describeRow(row)}\n`);
    }
  }
  return { rows, invalid };
}

/** The second pass's reading: a file that stops reading mid-batch ends the batch, said, not thrown. */
interface InputState {
  unreadable?: string;
}

async function sendRows(
  file: string,
  total: number,
  { concurrency, maxRetries }: SendOptions,
  client: PaymentClient,
  results: ResultsFile,
  input: InputState,
): Promise<BatchSummary> {
  const controller = new AbortController();
  const view = progressView(total);
  const undo = stopOnSignal(
    controller,
    'payinout payouts send: stopping — no new PayOut starts, the ones in flight are settled',
    () => view.stop(),
  );
  // createMany's create and lookup-first (a miss is an answer, not an error), this command's retries.
  const { create, lookup } = client.payout[BATCH_CLIENT]();
  const batchClient: BatchClient = { create, lookup, maxRetries };
  try {
    return await runPayOutBatch(batchClient, items(file, input), {
      concurrency,
      signal: controller.signal,
      total,
      onProgress: (p) => view.update(p),
      sink: (result) => results.write(resultCells(result)),
    });
  } finally {
    view.stop();
    undo();
  }
}

/** Second pass: valid rows as PayOut params, invalid ones as already-failed items. */
async function* items(file: string, input: InputState): AsyncGenerator<unknown> {
  try {
    for await (const row of readRows(file)) {
      yield row.issues ? new RejectedItem(row.reference, rowError(row)) : row.params;
    }
  } catch (error) {
    // The file changed or vanished since the first pass: the rows in flight still settle.
    input.unreadable = (error as Error).message;
  }
}

function isUsage(error: unknown): boolean {
  return (
    error instanceof CsvFileError ||
    error instanceof UsageError ||
    error instanceof ConfigurationError ||
    isFsError(error)
  );
}

function isFsError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
