/**
 * `payinout payouts send FILE.csv --queue redis://… [--queue-name payouts] [--batch ID] [--out R.csv]`
 * (the public API contract, "Payouts across many machines"; guide: node_modules/payinout/docs/bulk-payouts.md or https://github.com/payinout/payinout/blob/main/docs/bulk-payouts.md).
 *
 * Every row is checked first — an invalid row or a repeated reference is a usage error and
 * nothing is enqueued —, then the rows are enqueued (payinout/bullmq), and the command waits,
 * showing progress, until workers (`payinout payouts worker`) have settled every row; it writes
 * the same results CSV as a send on one machine. It holds no credential: the workers have theirs.
 */
import type { Queue } from 'bullmq';
import type { PayOutBatchState } from '../bullmq/index.js';
import { newBatchId } from '../bullmq/keys.js';
import { UsageError } from './errors.js';
import { CsvFileError, describeRow, RESULT_COLUMNS, readRows, resultCells } from './payouts-csv.js';
import { progressView } from './payouts-progress.js';
import {
  connected,
  loadQueueModule,
  type QueueConnection,
  QueueSetupError,
  shownUrl,
} from './queue-connection.js';
import { answered, checkDatabase, closeQueue } from './queue-redis.js';
import { openResultsFile, type ResultsFile } from './results-file.js';
import { printErr, printOut } from './terminal.js';

export interface QueueSendOptions {
  queue: QueueConnection;
  queueName: string;
  batch?: string;
  out?: string;
  dryRun?: boolean;
}

const EXIT = { ok: 0, someFailed: 1, usage: 2, interrupted: 130 } as const;
const ROWS_PER_ENQUEUE = 1_000;
const POLL_MS = 500;
/** With no progress for this long, a full read (which also notices jobs gone from the queue). */
const STILL_MS = 10_000;
const NO_WORKER_HINT_MS = 15_000;

export async function sendToQueue(file: string, options: QueueSendOptions): Promise<number> {
  let results: ResultsFile | undefined;
  let queue: Queue | undefined;
  try {
    const rows = await checkRows(file);
    if (options.dryRun) {
      printOut(`dry run: ${rows} rows, all valid; nothing was enqueued.\n`);
      return EXIT.ok;
    }
    // Opened (and checked not to be the input under another name) before anything is enqueued.
    results = await openResultsFile(options.out, file, RESULT_COLUMNS);
    const out = results.path;
    const bullmq = await loadQueueModule();
    const { Queue } = await import('bullmq');
    await checkDatabase(options.queue);
    queue = new Queue(options.queueName, { connection: options.queue });
    queue.on('error', () => undefined); // reported by `connected` and by the calls that fail
    await connected(queue, options.queue);
    const { batchId, enqueued } = await enqueueFile(bullmq, queue, file, options);
    const state = await waitForWorkers(bullmq, queue, { batchId, enqueued, rows }, options);
    if (!state) return EXIT.interrupted;
    for (const result of state.results) await results.write(resultCells(result));
    const place = await results.close();
    results = undefined;
    if (place.failure) {
      printErr(
        `payinout payouts send: could not write the results file ${out} (${place.failure}); the complete results are in ${place.path}. The batch is settled on the queue: run this command again with --batch ${batchId} to write them again.\n`,
      );
    }
    if (state.halted) printErr(`payinout payouts send: ${state.halted}\n`);
    printOut(
      `${state.created} created, ${state.recovered} recovered, ${state.failed} failed (of ${state.total}); batch ${batchId}; results in ${place.path}\n`,
    );
    return state.failed ? EXIT.someFailed : EXIT.ok;
  } catch (error) {
    await results?.close().catch(() => undefined);
    printErr(`payinout payouts send: ${(error as Error).message.replace(/\s*\n\s*/g, ' ')}\n`);
    return error instanceof CsvFileError || error instanceof UsageError || isFsError(error)
      ? EXIT.usage
      : EXIT.someFailed;
  } finally {
    if (queue) await closeQueue(queue);
  }
}

/** First pass: every row valid and every reference once, or a usage error listing them all. */
async function checkRows(file: string): Promise<number> {
  let rows = 0;
  const problems: string[] = [];
  const lineOf = new Map<string, number>();
  for await (const row of readRows(file)) {
    rows++;
    if (row.issues) problems.push(describeRow(row));
    else if (lineOf.has(row.reference)) {
      problems.push(
        `line ${row.line}: reference '${row.reference}' repeats line ${lineOf.get(row.reference)}; a reference names one PayOut`,
      );
    } else lineOf.set(row.reference, row.line);
  }
  if (problems.length) {
    for (const problem of problems) printErr(`${problem}\n`);
    throw new CsvFileError(
      `${problems.length} of ${rows} rows cannot be sent (listed above); nothing was enqueued. Fix them and run again.`,
    );
  }
  return rows;
}

type QueueModule = Awaited<ReturnType<typeof loadQueueModule>>;

/** Second pass: the rows, enqueued in chunks under one batch id. */
async function enqueueFile(bullmq: QueueModule, queue: Queue, file: string, options: QueueSendOptions) {
  // Chosen here, not by the first chunk: a run cut short can still say which batch it filled.
  const batchId = options.batch ?? newBatchId();
  let enqueued = 0;
  let skipped = 0;
  let chunk: Record<string, unknown>[] = [];
  const flush = async () => {
    // Rows validated by checkRows with payout.create's schema; enqueuePayOuts checks them again.
    const added = await answered(
      bullmq.enqueuePayOuts(queue, chunk as never[], { batchId }),
      options.queue,
      () =>
        cutShort(
          batchId,
          `${enqueued} rows were enqueued before it, maybe more of the ${chunk.length} being added`,
        ),
    );
    enqueued += added.enqueued;
    skipped += added.skipped;
    chunk = [];
  };
  for await (const row of readRows(file)) {
    if (row.params) chunk.push(row.params);
    if (chunk.length >= ROWS_PER_ENQUEUE) await flush();
  }
  if (chunk.length || enqueued + skipped === 0) await flush();
  const where = `queue '${options.queueName}' at ${shownUrl(options.queue)}`;
  printErr(
    `payinout payouts send: batch ${batchId}: ${enqueued} enqueued${skipped ? `, ${skipped} already in the batch` : ''} on ${where}\n`,
  );
  return { batchId, enqueued };
}

/** What a run that lost Redis did, and how to finish it. */
function cutShort(batchId: string, done: string): string {
  return `Batch ${batchId}: ${done}. Workers settle whatever was enqueued once Redis is back; run this command again with --batch ${batchId} to enqueue the rest (rows already enqueued are not added twice), wait for the workers and write the results.`;
}

/** Polls until every row is settled; `undefined` when interrupted (the batch goes on). */
async function waitForWorkers(
  bullmq: QueueModule,
  queue: Queue,
  batch: { batchId: string; enqueued: number; rows: number },
  options: QueueSendOptions,
): Promise<PayOutBatchState | undefined> {
  const { batchId } = batch;
  const view = progressView(batch.rows);
  const lost = () =>
    cutShort(batchId, `all ${batch.rows} rows are in it (${batch.enqueued} enqueued by this run)`);
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const started = Date.now();
  let hinted = false;
  let lastDone = -1;
  let lastChange = Date.now();
  try {
    for (;;) {
      const counts = await answered(bullmq.countPayOutBatch(queue, batchId), options.queue, lost);
      view.update(counts);
      if (counts.done !== lastDone) [lastDone, lastChange] = [counts.done, Date.now()];
      if (counts.done >= counts.total || Date.now() - lastChange > STILL_MS) {
        lastChange = Date.now();
        const state = await answered(bullmq.readPayOutBatch(queue, batchId), options.queue, lost);
        if (state.pending === 0) return state;
      }
      if (!hinted && counts.done === 0 && Date.now() - started > NO_WORKER_HINT_MS) {
        hinted = true;
        view.stop();
        printErr(
          `payinout payouts send: no row settled yet — is a worker running? payinout payouts worker --queue ${shownUrl(options.queue)} --queue-name ${options.queueName}\n`,
        );
      }
      await new Promise((done) => setTimeout(done, POLL_MS));
      if (interrupted) {
        view.stop();
        printErr(
          `payinout payouts send: stopped waiting. Batch ${batchId} stays on the queue and the workers go on settling it; to wait for it and write the results, run this command again with --batch ${batchId} (rows already enqueued are not added twice).\n`,
        );
        return undefined;
      }
    }
  } finally {
    view.stop();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

function isFsError(error: unknown): boolean {
  if (error instanceof QueueSetupError) return false;
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code) && code !== 'ECONNREFUSED';
}
