/**
 * What a worker does with one job: a chunk of a batch (one PayOut, or `itemsPerJob` of them) run
 * through the runner for "many" (settle.ts), in two Redis operations of its own — START_JOB
 * takes the leases and reads the halt (and the pause, when this worker may have missed an
 * announcement of one); END_JOB releases the leases and saves every result, written ahead of
 * BullMQ's completion of the job in one socket write (job-end.ts) — each sent in one script with
 * those of the worker's other jobs in the same turn (script-batch.ts) — and its
 * leases join the worker's renewal of all its jobs' leases, every third of their time to live.
 */
import type { Job, RedisClient } from 'bullmq';
import type { PaymentClient } from '../client.js';
import { dispatcherOf } from '../core/dispatch.js';
import { LANE } from '../core/types.js';
import { jobTracing } from '../tracing/index.js';
import { encodeResult } from './codec.js';
import { LeaseLostError } from './errors.js';
import { sendEnd } from './job-end.js';
import { BATCH_ID, type JobKeys, jobIdOf, jobKeys, type KeyOwner } from './keys.js';
import { JobLease, LeaseRenewal } from './lease.js';
import { BATCH_CLIENT, type BatchClient, type PayOutBatchResult, referenceOf, settleJob } from './settle.js';
import { SharedHalt, type SharedPause } from './shared.js';

/** What a job holds: no credential (the worker has its own client), the batch and the items. */
export type PayOutJobData =
  | {
      batchId: string;
      /** One PayOut's params, validated when enqueued (`itemsPerJob: 1`). */
      item: Record<string, unknown>;
    }
  | {
      batchId: string;
      /** PayOut params in input order, validated when enqueued (`itemsPerJob` above 1). */
      items: Record<string, unknown>[];
    };

/** A job's result: the PayOut's for a one-PayOut job, one per item in order for a chunk. */
export type PayOutJobResult = PayOutBatchResult | PayOutBatchResult[];

export interface JobParts {
  redis: () => Promise<RedisClient>;
  owner: () => KeyOwner;
  /** The worker's shared pause (created once the worker exists). */
  pause: () => SharedPause;
  client: PaymentClient;
  maxRetries: number;
  leaseMs: number;
  /** Items of one chunk in flight at once. */
  itemConcurrency: number;
  /** Told when a job's results could not be saved after it returned (the worker's 'error'). */
  report: (error: Error) => void;
}

export function jobProcessor(parts: JobParts) {
  const base = batchClientOf(parts.client, parts.maxRetries);
  const keysOf = keyCache();
  let renewal: LeaseRenewal | undefined;
  let client: RedisClient | undefined;
  let heard = false;
  return async (job: Job<PayOutJobData>): Promise<PayOutJobResult> => {
    const items = itemsOf(job);
    const { batchId } = job.data;
    const redis = parts.redis();
    const keys = keysOf(parts.owner(), batchId);
    renewal ??= new LeaseRenewal(redis, keys.leases, parts.leaseMs);
    const lease = new JobLease(redis, keys, renewal);
    const halt = new SharedHalt(redis, keys.halt);
    const pause = parts.pause();
    try {
      if (!heard) {
        await pause.heard();
        heard = true; // settled once (heard, or given up on), it stays so: later jobs skip the await
      }
      client ??= await redis;
      const start = await lease.start(client, items.map(referenceOf), { pause: pause.unheard() });
      pause.pauseFor(start.pauseMs);
      halt.take(start.halt);
      const results = await settleJob(items, {
        client: fenced(base, lease),
        pause,
        lock: lease,
        halt,
        maxRetries: parts.maxRetries,
        concurrency: parts.itemConcurrency,
        site: { queue: job.queueName, batchId },
      });
      if (halt.saved) await halt.saved;
      const end = { client, keys, held: lease.finish(), saved: savedOf(batchId, results) };
      await sendEnd(end, parts.report);
      return 'item' in job.data ? results[0]! : results;
    } finally {
      lease.finish();
    }
  };
}

/**
 * A job's keys, built once per batch rather than once per job (seven key names and two objects
 * a job); the last few batches are kept, a worker rarely serves more at once.
 */
function keyCache(): (owner: KeyOwner, batchId: string) => JobKeys {
  const known = new Map<string, JobKeys>();
  let of: KeyOwner | undefined;
  return (owner, batchId) => {
    if (owner !== of) known.clear();
    of = owner;
    let keys = known.get(batchId);
    if (keys) return keys;
    if (known.size >= KEPT_BATCHES) known.clear();
    keys = jobKeys(owner, batchId);
    known.set(batchId, keys);
    return keys;
  };
}

const KEPT_BATCHES = 16;

/** The results END_JOB saves: none for an item whose lease was lost (the holder's result wins). */
export function savedOf(batchId: string, results: readonly PayOutBatchResult[]) {
  const out = [];
  for (const result of results) {
    if (result.error instanceof LeaseLostError) continue;
    const json = encodeResult(result);
    out.push({ itemId: jobIdOf(batchId, result.reference), json, outcome: result.outcome });
  }
  return out;
}

function itemsOf(job: Job<PayOutJobData>): readonly unknown[] {
  if (!isPayOutJob(job.data)) {
    throw new Error(
      `job ${job.id} is not a payinout PayOut job (add PayOuts with enqueuePayOuts); it was not run`,
    );
  }
  return 'items' in job.data ? job.data.items : [job.data.item];
}

/** A job enqueuePayOuts added (another producer's job on the same queue is left alone). */
export function isPayOutJob(data: unknown): data is PayOutJobData {
  const { batchId, item, items } = (data ?? {}) as { batchId?: unknown; item?: unknown; items?: unknown };
  if (typeof batchId !== 'string' || !BATCH_ID.test(batchId)) return false;
  return Array.isArray(items) || (item !== null && typeof item === 'object');
}

/** A job's items as they were enqueued (for a job BullMQ gave up on). */
export function jobItems(data: PayOutJobData): readonly Record<string, unknown>[] {
  return 'items' in data ? data.items : [data.item];
}

/**
 * The worker's client as a batch sees it: its create and lookup, and its observers (a tracer
 * makes each PayOut of a job a span); the worker's own `maxRetries`.
 */
function batchClientOf(client: PaymentClient, maxRetries: number): BatchClient {
  const own = client.payout[BATCH_CLIENT]?.();
  return {
    create: own?.create ?? ((params, opts) => client.payout.create(params, opts)),
    lookup: own?.lookup ?? ((reference, opts) => client.transactions.get(reference, opts)),
    maxRetries,
    // Queue jobs are traced apart from the client's calls and batches (tracing/index.ts jobTracing).
    observers: own?.tracer ? dispatcherOf([jobTracing(own.tracer)]) : own?.observers,
  };
}

/**
 * The client, with a fence before every create: sent only while this worker holds the lease.
 * Right before the create's bytes leave (every send of it, resends too) the lane's `beforeWrite`
 * checks, on this worker's clock, that the lease has not run out: a worker frozen after a
 * renewal was sent — even one whose "still yours" answer was only read on waking — sends nothing.
 * No Redis round trip: the renewals run beside the job, every third of the lease.
 */
function fenced(base: BatchClient, lease: JobLease): BatchClient {
  // Not an async function (one promise fewer a PayOut); what it throws is still a rejection.
  const create: BatchClient['create'] = (params, opts) => {
    try {
      const { reference } = params;
      if (!lease.holdsNow(reference)) throw new LeaseLostError(reference);
      let sends = 0;
      const beforeWrite = () => {
        if (!lease.holdsNow(reference)) throw new LeaseLostError(reference, sends > 0);
        sends += 1;
      };
      const lane = opts?.[LANE];
      if (!lane) return base.create(params, opts);
      return base.create(
        params,
        Object.assign({}, opts, { [LANE]: Object.assign({}, lane, { beforeWrite }) }),
      );
    } catch (error) {
      return Promise.reject(error);
    }
  };
  // Object.assign, not a spread followed by properties: V8 (Node 20) copies those on a slow path
  // (~0.4 µs each), and these run once per job and once per create.
  return Object.assign({}, base, { create });
}
