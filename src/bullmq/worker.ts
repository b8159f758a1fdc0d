/**
 * `createPayOutWorker`: a BullMQ Worker whose jobs each settle one PayOut exactly as
 * `createMany` does (settle.ts), with the batch-wide parts shared through Redis (shared.ts).
 */
import { type ConnectionOptions, type Job, type RedisClient, Worker, type WorkerOptions } from 'bullmq';
import type { PaymentClient } from '../client.js';
import { ConfigurationError, ConnectionError } from '../core/errors.js';
import { guide } from '../core/guides.js';
import { LANE } from '../core/types.js';
import { closestKey } from '../schemas/suggest.js';
import { encodeResult } from './codec.js';
import { LeaseLostError } from './errors.js';
import { BATCH_ID, batchKeys, type KeyOwner, queueKeys, redisOf } from './keys.js';
import { saveResult } from './scripts.js';
import {
  BATCH_CLIENT,
  type BatchClient,
  checkConcurrency,
  type PayOutBatchResult,
  settleTraced,
} from './settle.js';
import { JobPause, ReferenceLease, SharedHalt, SharedPause } from './shared.js';

/** What a job holds: no credential (the worker has its own client), the item and its place. */
export interface PayOutJobData {
  batchId: string;
  /** The PayOut params, validated when enqueued. */
  item: Record<string, unknown>;
}

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
  /** Jobs this worker settles at once; default 4, at most 64 (as createMany). */
  concurrency?: number;
  /**
   * Transient failures (no answer, 5xx, 408) each job retries after; a lost create answer is looked
   * up before any resend, so a retry never sends a PayOut twice;
   * default 2, as a client's. A 429 pauses every worker of the queue instead and is not counted.
   */
  maxRetries?: number;
  /**
   * Passed to BullMQ's Worker (lockDuration, stalledInterval, limiter, prefix…). payinout's
   * defaults: lockDuration 10 s, stalledInterval 5 s (a killed worker's jobs move on within about
   * 15 s; the reference lease makes the short lock safe), maxStalledCount 5.
   */
  workerOptions?: Omit<WorkerOptions, 'connection' | 'concurrency'>;
}

const KNOWN = ['queueName', 'connection', 'client', 'concurrency', 'maxRetries', 'workerOptions'];

/**
 * BullMQ's rate limiter stops a queue's workers only when they have a limiter configured: one
 * that never limits by count, so that `worker.rateLimit(ms)` (a 429's Retry-After) pauses them all.
 */
const NEVER_BY_COUNT = { max: 1_000_000_000, duration: 1_000 };

const DEFAULTS = { lockDuration: 10_000, stalledInterval: 5_000, maxStalledCount: 5 };

/** A BullMQ Worker settling PayOut jobs; close it with `worker.close()` (it finishes its jobs). */
export function createPayOutWorker(options: PayOutWorkerOptions): Worker<PayOutJobData, PayOutBatchResult> {
  checkOptions(options);
  const concurrency = checkConcurrency(options.concurrency);
  const maxRetries = options.maxRetries ?? 2;
  const settings = { limiter: NEVER_BY_COUNT, ...DEFAULTS, ...options.workerOptions };
  let worker: Worker<PayOutJobData, PayOutBatchResult>;
  const redis = () => redisOf(worker);
  const settle = jobSettler(options.client, maxRetries, settings.lockDuration, {
    redis,
    owner: () => worker,
    // Deprecated in BullMQ 6 in favour of queue.rateLimit (no Queue here), still there in 6.x.
    limitQueue: async (ms) => {
      if (typeof worker.rateLimit === 'function') await worker.rateLimit(ms);
    },
  });
  worker = new Worker<PayOutJobData, PayOutBatchResult>(options.queueName, settle, {
    ...settings,
    connection: options.connection,
    concurrency,
  });
  // A job BullMQ gave up on (stalled more than maxStalledCount times) still gets a result.
  worker.on('failed', (job, error) => {
    if (job) void recordGivenUp(redis(), worker, job, error).catch(() => undefined);
  });
  worker.on('error', (error) => warnUnheard(worker, error));
  return worker;
}

interface WorkerParts {
  redis: () => Promise<RedisClient>;
  owner: () => KeyOwner;
  limitQueue: (ms: number) => Promise<void>;
}

function jobSettler(client: PaymentClient, maxRetries: number, leaseMs: number, parts: WorkerParts) {
  let gate: SharedPause | undefined;
  const base = batchClientOf(client, maxRetries);
  return async (job: Job<PayOutJobData>): Promise<PayOutBatchResult> => {
    if (!isPayOutJob(job.data)) {
      throw new Error(
        `job ${job.id} is not a payinout PayOut job (add PayOuts with enqueuePayOuts); it was not run`,
      );
    }
    const owner = parts.owner();
    const redis = parts.redis();
    gate ??= new SharedPause(redis, queueKeys(owner).pause, parts.limitQueue);
    const keys = batchKeys(owner, job.data.batchId);
    const halt = new SharedHalt(redis, keys.halt);
    await halt.load();
    const lease = new ReferenceLease(redis, queueKeys(owner), leaseMs);
    const pause = new JobPause(gate);
    const ctx = {
      client: fenced(base, lease, pause),
      gate: pause,
      lock: lease,
      halt,
      maxRetries,
      signal: undefined,
    };
    const site = { queue: job.queueName, batchId: job.data.batchId };
    const result = await settleTraced(job.data.item, ctx, site);
    await halt.saved;
    // A worker that lost the reference sent nothing; the job's result is the holder's.
    if (!(result.error instanceof LeaseLostError)) {
      await saveResult(await redis, keys, String(job.id), encodeResult(result), result.outcome);
    }
    return result;
  };
}

/**
 * The worker's client as a batch sees it: its create and lookup, and its observers (a tracer
 * makes each job a span); the worker's own `maxRetries`.
 */
function batchClientOf(client: PaymentClient, maxRetries: number): BatchClient {
  const own = client.payout[BATCH_CLIENT]?.();
  return {
    create: own?.create ?? ((params, opts) => client.payout.create(params, opts)),
    lookup: own?.lookup ?? ((reference, opts) => client.transactions.get(reference, opts)),
    maxRetries,
    observers: own?.observers,
  };
}

/**
 * The client, with a fence before every create: sent only while this worker holds the lease. The
 * queue's pause is waited out first, then the lease is renewed in Redis; and right before the
 * create's bytes leave (every send of it, resends too) the lane's `beforeWrite` checks, on this
 * worker's clock, that the lease has not run out since: a worker frozen after a renewal was sent
 * — even one whose "still yours" answer was only read on waking — sends nothing.
 */
function fenced(base: BatchClient, lease: ReferenceLease, pause: JobPause): BatchClient {
  return {
    ...base,
    create: async (params, opts) => {
      const { reference } = params;
      await pause.ready(opts?.signal);
      if (!(await lease.stillHeld(reference))) throw new LeaseLostError(reference);
      pause.checked();
      let sends = 0;
      const beforeWrite = () => {
        if (!lease.holdsNow(reference)) throw new LeaseLostError(reference, sends > 0);
        sends += 1;
      };
      const lane = opts?.[LANE];
      return base.create(params, lane ? { ...opts, [LANE]: { ...lane, beforeWrite } } : opts);
    },
  };
}

/**
 * BullMQ reports connection trouble (and BullMQ 6 a missing ioredis) as 'error' events: unheard,
 * one would crash the process; swallowed, a worker that cannot work would look idle. When the
 * application listens for them itself it decides; otherwise each distinct one is a Node warning.
 */
const warned = new WeakMap<object, Set<string>>();
function warnUnheard(worker: Worker<PayOutJobData, PayOutBatchResult>, error: Error): void {
  if (worker.listenerCount('error') > 1) return;
  const seen = warned.get(worker) ?? new Set<string>();
  warned.set(worker, seen);
  if (seen.has(error.message)) return;
  seen.add(error.message);
  process.emitWarning(`payinout/bullmq worker: ${error.message}`, { code: 'PAYINOUT_BULLMQ' });
}

async function recordGivenUp(
  redis: Promise<RedisClient>,
  owner: KeyOwner,
  job: Job<PayOutJobData>,
  error: Error,
): Promise<void> {
  if (!isPayOutJob(job.data)) return;
  const { batchId, item } = job.data;
  const reference = String(item.reference ?? '');
  const result: PayOutBatchResult = {
    reference,
    outcome: 'failed',
    error: new ConnectionError({
      message: `PayOut '${reference}': BullMQ gave up on its job (${error.message}), so its outcome is unknown. Enqueue the batch again under a new batchId: every reference is looked up first and never sent twice.`,
      outcome: 'unknown',
      reference,
    }),
  };
  await saveResult(await redis, batchKeys(owner, batchId), String(job.id), encodeResult(result), 'failed');
}

/** A job enqueuePayOuts added (another producer's job on the same queue is left alone). */
function isPayOutJob(data: unknown): data is PayOutJobData {
  const { batchId, item } = (data ?? {}) as Partial<PayOutJobData>;
  return typeof batchId === 'string' && BATCH_ID.test(batchId) && item !== null && typeof item === 'object';
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
