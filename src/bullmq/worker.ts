/**
 * `createPayOutWorker`: a BullMQ Worker whose jobs each settle one PayOut exactly as
 * `createMany` does (settle.ts), with the batch-wide parts shared through Redis (shared.ts).
 */
import { type ConnectionOptions, type Job, type RedisClient, Worker, type WorkerOptions } from 'bullmq';
import type { PaymentClient } from '../client.js';
import { ConfigurationError, ConnectionError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import { closestKey } from '../schemas/suggest.js';
import { endJob } from './chunk-scripts.js';
import { DEFAULT_WORKER_CONCURRENCY, DEFAULT_WORKER_LOCKS } from './defaults.js';
import { ErrorKinds } from './error-kinds.js';
import {
  isPayOutJob,
  jobItems,
  jobProcessor,
  type PayOutJobData,
  type PayOutJobResult,
  savedOf,
} from './job.js';
import { jobKeys, type KeyOwner, queueKeys, redisOf } from './keys.js';
import { checkConcurrency, type PayOutBatchResult } from './settle.js';
import { SharedPause } from './shared.js';

export type { PayOutJobData, PayOutJobResult };

/** Options of {@link createPayOutWorker}. */
export interface PayOutWorkerOptions {
  /** The queue `enqueuePayOuts` adds to (BullMQ's queue name). */
  queueName: string;
  /** BullMQ's Redis connection options (or an ioredis instance). */
  connection: ConnectionOptions;
  /**
   * The worker's own client: its credentials never travel through Redis. Its `tracer`, when it
   * has one, makes each job a span (parent of the job's lookup and create spans).
   */
  client: PaymentClient;
  /**
   * Jobs this worker settles at once (BullMQ's concurrency); default 4 (chosen by the queue bench,
   * docs/performance.md), at most 64. A job is one PayOut, or a chunk (`itemsPerJob`) whose
   * PayOuts run 8 at a time; with `itemsPerJob: 1`, try 8.
   */
  concurrency?: number;
  /**
   * Transient failures (no answer, 5xx, 408) each job retries after; a lost create answer is looked
   * up before any resend, so a retry never sends a PayOut twice;
   * default 2, as a client's. A 429 pauses every worker of the queue instead and is not counted.
   */
  maxRetries?: number;
  /**
   * Passed to BullMQ's Worker (lockDuration, stalledInterval, limiter, prefix…). payinout's
   * defaults: lockDuration 5 s, stalledInterval 2.5 s (a killed worker's jobs move on within about
   * 7.5 s; the reference lease makes the short lock safe), maxStalledCount 5.
   */
  workerOptions?: Omit<WorkerOptions, 'connection' | 'concurrency'>;
}

const KNOWN = ['queueName', 'connection', 'client', 'concurrency', 'maxRetries', 'workerOptions'];

// Chosen by the queue bench (failover after a SIGKILL against lock-keeping commands): defaults.ts.
const DEFAULTS = DEFAULT_WORKER_LOCKS;

/** PayOuts of one chunk job in flight at once (a one-PayOut job has one). */
const ITEMS_AT_ONCE = 8;

/** A BullMQ Worker settling PayOut jobs; close it with `worker.close()` (it finishes its jobs). */
export function createPayOutWorker(options: PayOutWorkerOptions): Worker<PayOutJobData, PayOutJobResult> {
  checkOptions(options);
  const concurrency =
    options.concurrency === undefined ? DEFAULT_WORKER_CONCURRENCY : checkConcurrency(options.concurrency);
  const maxRetries = options.maxRetries ?? 2;
  // No limiter of payinout's: the shared pause reaches every job in flight (shared.ts), and one
  // that never limits would cost BullMQ three commands a job. A merchant's own limiter still
  // applies, and `rateLimit` (a 429's Retry-After) then stops its workers taking jobs as well.
  const settings = { ...DEFAULTS, ...options.workerOptions };
  let worker: Worker<PayOutJobData, PayOutJobResult>;
  let pause: SharedPause | undefined;
  const redis = () => redisOf(worker);
  const sharedPause = () => {
    if (pause) return pause;
    // Deprecated in BullMQ 6 in favour of queue.rateLimit (no Queue here), still there in 6.x.
    pause = new SharedPause(redis(), queueKeys(worker).pause, async (ms) => {
      if (typeof worker.rateLimit === 'function') await worker.rateLimit(ms);
    });
    const stopListening = pause.listen();
    worker.on('closed', stopListening);
    return pause;
  };
  const processor = jobProcessor({
    redis,
    owner: () => worker,
    pause: sharedPause,
    client: options.client,
    maxRetries,
    leaseMs: settings.lockDuration,
    itemConcurrency: ITEMS_AT_ONCE,
    report: (error) => worker.emit('error', error),
  });
  worker = new Worker<PayOutJobData, PayOutJobResult>(options.queueName, processor, {
    ...settings,
    connection: options.connection,
    concurrency,
  });
  void worker.waitUntilReady().then(sharedPause, () => undefined);
  // A job BullMQ gave up on (stalled more than maxStalledCount times) still gets a result.
  worker.on('failed', (job, error) => {
    if (job) void recordGivenUp(redis(), worker, job, error).catch(() => undefined);
  });
  worker.on('error', (error) => warnUnheard(worker, error));
  return worker;
}

/**
 * BullMQ reports connection trouble (and BullMQ 6 a missing ioredis) as 'error' events: unheard,
 * one would crash the process; swallowed, a worker that cannot work would look idle. When the
 * application listens for them itself it decides; otherwise each kind is a Node warning, once.
 */
const warned = new WeakMap<object, ErrorKinds>();
function warnUnheard(worker: Worker<PayOutJobData, PayOutJobResult>, error: Error): void {
  if (worker.listenerCount('error') > 1) return;
  const kinds = warned.get(worker) ?? new ErrorKinds();
  warned.set(worker, kinds);
  if (!kinds.first(error.message)) return;
  process.emitWarning(`payinout/bullmq worker: ${error.message}`, { code: 'PAYINOUT_BULLMQ' });
}

async function recordGivenUp(
  redis: Promise<RedisClient>,
  owner: KeyOwner,
  job: Job<PayOutJobData>,
  error: Error,
): Promise<void> {
  if (!isPayOutJob(job.data)) return;
  const { batchId } = job.data;
  const items = jobItems(job.data);
  // Its holder died: each lease is released once it has run out (an empty token), none is left behind.
  const leases = items.map((item) => ({ reference: String(item.reference ?? ''), token: '' }));
  const results = items.map((item): PayOutBatchResult => {
    const reference = String(item.reference ?? '');
    return {
      reference,
      outcome: 'failed',
      error: new ConnectionError({
        message: `PayOut '${reference}': BullMQ gave up on its job (${error.message}), so its outcome is unknown. Enqueue the batch again under a new batchId: every reference is looked up first and never sent twice.`,
        outcome: 'unknown',
        reference,
      }),
    };
  });
  await endJob(await redis, jobKeys(owner, batchId), leases, savedOf(batchId, results));
}

/** Options that belong to the worker's client: the worker uses whatever its client was given. */
const CLIENT_OPTIONS: Record<string, string> = {
  tracer: `is the client's option: new PaymentClient({ …, tracer }) makes each job a span (${guide('observability.md', 'queue-jobs-payinoutbullmq')})`,
  logger: "is the client's option: new PaymentClient({ …, logger })",
  timeoutMs: "is the client's option: new PaymentClient({ …, timeoutMs })",
};

function unknownOption(key: string): string {
  const near = closestKey(key, KNOWN);
  return `unknown option${near ? `; did you mean '${near}'?` : ''}`;
}

function checkOptions(options: PayOutWorkerOptions): void {
  const issues = [];
  if (options === null || typeof options !== 'object') {
    issues.push({ path: '(options)', message: 'must be an object { queueName, connection, client }' });
  } else {
    for (const key of Object.keys(options)) {
      if (KNOWN.includes(key)) continue;
      issues.push({ path: key, message: CLIENT_OPTIONS[key] ?? unknownOption(key) });
    }
    if (typeof options.queueName !== 'string' || options.queueName === '')
      issues.push({
        path: 'queueName',
        message: 'is required: the name of the queue enqueuePayOuts adds to',
      });
    if (!options.connection)
      issues.push({ path: 'connection', message: "is required: BullMQ's Redis connection" });
    if (!options.client?.payout || !options.client?.transactions)
      issues.push({
        path: 'client',
        message: 'is required: a PaymentClient with the worker’s own credentials',
      });
    const retries = options.maxRetries;
    if (retries !== undefined && !(Number.isSafeInteger(retries) && retries >= 0))
      issues.push({ path: 'maxRetries', message: 'must be a whole number, 0 or more' });
  }
  if (issues.length) {
    const list = issues.map((i) => `${i.path}: ${i.message}`).join('; ');
    throw new ConfigurationError(`createPayOutWorker: ${list}. No worker was started.`);
  }
}
