/**
 * `payinout payouts worker --queue redis://… [--queue-name payouts] [--concurrency N]`: a
 * payinout/bullmq worker with the PAYINOUT_* credentials. It settles jobs until SIGTERM or
 * Ctrl+C, then finishes the jobs in hand and exits 0 (a second signal quits at once).
 */
import type { Command } from 'commander';
import { MAX_CONCURRENCY } from '../bulk/batch.js';
import { DEFAULT_WORKER_CONCURRENCY, DEFAULT_WORKER_LOCKS } from '../bullmq/defaults.js';
import { ErrorKinds } from '../bullmq/error-kinds.js';
import { PaymentClient } from '../client.js';
import { VERSION } from '../version.js';
import { FailureLines } from './failure-lines.js';
import { integerIn } from './options.js';
import {
  connected,
  loadQueueModule,
  type QueueConnection,
  queueName,
  queueUrl,
  shownUrl,
} from './queue-connection.js';
import { checkDatabase } from './queue-redis.js';
import { printErr } from './terminal.js';

interface WorkerCliOptions {
  queue: QueueConnection;
  queueName: string;
  concurrency: number;
  maxRetries: number;
}

const SUMMARY_MS = 10_000;

export function registerPayoutsWorker(payouts: Command): void {
  payouts
    .command('worker')
    .description(
      'Settle PayOuts enqueued with `payouts send --queue`, on this machine (any number of hosts may run one)',
    )
    .requiredOption(
      '--queue <redis-url>',
      'the Redis of the queue, e.g. redis://127.0.0.1:6379[/DB]',
      queueUrl,
    )
    .option('--queue-name <name>', 'the queue name', queueName, 'payouts')
    .option(
      '--concurrency <n>',
      `jobs this worker settles at once (a job is a chunk of up to 50 PayOuts, 8 at a time), 1-${MAX_CONCURRENCY}`,
      integerIn(1, MAX_CONCURRENCY),
      DEFAULT_WORKER_CONCURRENCY,
    )
    .option(
      '--max-retries <n>',
      'retries per PayOut after a lost answer, 5xx or 408; a lost answer is looked up before any resend',
      integerIn(0, 100),
      2,
    )
    .addHelpText(
      'after',
      `\nCredentials: PAYINOUT_USERNAME, PAYINOUT_PASSWORD, PAYINOUT_TOKEN, PAYINOUT_BASE_URL (never taken from the queue).\nA killed worker's PayOuts are taken over by another within about ${(DEFAULT_WORKER_LOCKS.lockDuration + DEFAULT_WORKER_LOCKS.stalledInterval) / 1000} s (payinout/bullmq's lock defaults).\nStops on SIGTERM or Ctrl+C after finishing the PayOuts in hand (exit 0). Exit 2: usage error.`,
    )
    .action(async (options: WorkerCliOptions) => {
      process.exitCode = await runWorker(options);
    });
}

async function runWorker(options: WorkerCliOptions): Promise<number> {
  let client: PaymentClient;
  try {
    client = PaymentClient.fromEnv(process.env, { appInfo: { name: 'payinout-cli', version: VERSION } });
  } catch (error) {
    printErr(`payinout payouts worker: ${(error as Error).message}\n`);
    return 2;
  }
  let bullmq: Awaited<ReturnType<typeof loadQueueModule>>;
  try {
    bullmq = await loadQueueModule();
  } catch (error) {
    printErr(`payinout payouts worker: ${(error as Error).message}\n`);
    return 2; // bullmq or ioredis missing: nothing was started
  }
  try {
    // Before the worker exists: once running, it would take jobs from whatever database it is on.
    await checkDatabase(options.queue);
  } catch (error) {
    printErr(`payinout payouts worker: ${(error as Error).message}\n`);
    return 1;
  }
  const worker = bullmq.createPayOutWorker({
    queueName: options.queueName,
    connection: options.queue,
    client,
    concurrency: options.concurrency,
    maxRetries: options.maxRetries,
  });
  const tally = { created: 0, recovered: 0, failed: 0 };
  const failures = new FailureLines();
  worker.on('completed', (_job, settled) => {
    for (const result of Array.isArray(settled) ? settled : [settled]) {
      tally[result.outcome]++;
      if (result.outcome !== 'failed') continue;
      const line = failures.line(result.reference, result.error);
      if (line !== undefined) printErr(`payinout payouts worker: ${terminalText(line)}\n`);
    }
  });
  // The causes come from the service's answers: one line each, as every line of theirs.
  const counts = () =>
    terminalText(
      `${tally.created} created, ${tally.recovered} recovered, ${tally.failed} failed${failures.unlisted()}`,
    );
  // A job BullMQ gave up on (stalled too often; its result is recorded as failed), or another
  // producer's job on this queue that is not a PayOut.
  worker.on('failed', (job, error) => {
    tally.failed++;
    printErr(`payinout payouts worker: ${terminalText(`job ${job?.id ?? '?'} failed: ${error.message}`)}\n`);
  });
  const errors = new ErrorKinds();
  worker.on('error', (error) => {
    // Connection trouble repeats while Redis is away, for every job held: each kind once.
    if (!errors.first(error.message)) return;
    printErr(`payinout payouts worker: Redis: ${terminalText(error.message)}\n`);
  });
  try {
    await connected(worker, options.queue);
  } catch (error) {
    printErr(`payinout payouts worker: ${(error as Error).message}\n`);
    await worker.close(true).catch(() => undefined);
    return 1;
  }
  printErr(
    `payinout payouts worker: settling PayOuts from queue '${options.queueName}' at ${shownUrl(options.queue)}, ${options.concurrency} at a time. SIGTERM or Ctrl+C finishes the ones in hand and exits.\n`,
  );
  let shown = '';
  const summary = setInterval(() => {
    // Only when something settled since the last line: an idle worker does not fill the log.
    const line = `${counts()} so far`;
    if (line === shown) return;
    shown = line;
    printErr(`payinout payouts worker: ${line}\n`);
  }, SUMMARY_MS);
  summary.unref();
  await stopSignal();
  printErr('payinout payouts worker: stopping — finishing the PayOuts in hand (again to quit at once)\n');
  const quitNow = (signal: NodeJS.Signals) => process.exit(signal === 'SIGINT' ? 130 : 143);
  process.once('SIGINT', quitNow);
  process.once('SIGTERM', quitNow);
  await worker.close();
  clearInterval(summary);
  printErr(`payinout payouts worker: stopped; ${counts()}\n`);
  return 0;
}

function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(signal);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

/** Service messages on one line; printErr neutralises what a terminal would act on. */
function terminalText(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
