/**
 * `readPayOutBatch`: where a batch stands, from any process — counts, why it stopped if it did,
 * and a result per item in input order. Results are payinout's own records (kept by the workers
 * as each job settles), so they survive the queue's removeOnComplete settings.
 */
import type { Queue, RedisClient } from 'bullmq';
import { ConnectionError, RequestValidationError } from '../core/errors.js';
import { decodeHalt, decodeResult } from './codec.js';
import { HaltRecordError } from './errors.js';
import { BATCH_ID, batchKeys, queueKeys, redisOf } from './keys.js';
import { readResults } from './scripts.js';
import type { PayOutBatchResult } from './settle.js';
import { BatchHalt } from './settle.js';

/** Where a queued batch stands: counts, why it halted (if it did), and a result per item. */
export interface PayOutBatchState {
  batchId: string;
  /** Items the batch holds. */
  total: number;
  /** Items settled: created + recovered + failed. */
  done: number;
  created: number;
  recovered: number;
  failed: number;
  /** Items not settled yet (waiting for, or held by, a worker). */
  pending: number;
  /** Why the batch stopped itself (refused credentials, a refused configuration), when it did. */
  halted?: string;
  /** One per item, in input order; `pending` items have none yet. */
  results: PayOutBatchResult[];
}

/** Counts only: what a progress display polls (one round trip, whatever the batch size). */
export interface PayOutBatchCounts {
  total: number;
  done: number;
  created: number;
  recovered: number;
  failed: number;
}

const CHUNK = 1_000;

/**
 * A queued batch's state, read from Redis: the counts, `halted` when a batch-wide failure
 * stopped it, and each item's result in input order (errors revived as their classes, so
 * `instanceof` works). Safe to call from any host, at any time, as often as needed.
 * @throws RequestValidationError when `batchId` is not a batch id
 */
export async function readPayOutBatch(queue: Queue, batchId: string): Promise<PayOutBatchState> {
  checkBatchId(batchId);
  const keys = { ...batchKeys(queue, batchId), leases: queueKeys(queue).leases };
  const client = await redisOf(queue);
  const ids = await client.lrange(keys.order, 0, -1);
  if (ids.length === 0) throw unknownBatch(queue, batchId);
  const state: PayOutBatchState = {
    batchId,
    total: ids.length,
    done: 0,
    created: 0,
    recovered: 0,
    failed: 0,
    pending: 0,
    results: [],
  };
  for (let start = 0; start < ids.length; start += CHUNK) {
    const chunk = ids.slice(start, start + CHUNK);
    const references = chunk.map(referenceOf);
    const stored = await readResults(client, keys, queue.toKey(''), { itemIds: chunk, references });
    for (const [i, item] of stored.entries()) {
      if (item === 'held') {
        state.pending++;
        continue;
      }
      const reference = references[i]!;
      const result = item === 'gone' ? vanished(reference) : decodeResult(item.json, reference);
      state.results.push(result);
      state.done++;
      state[result.outcome]++;
    }
  }
  const halted = await haltOf(client, keys.halt);
  if (halted) state.halted = halted;
  return state;
}

/** The settled counts of a batch, without its results. */
export async function countPayOutBatch(queue: Queue, batchId: string): Promise<PayOutBatchCounts> {
  checkBatchId(batchId);
  const keys = batchKeys(queue, batchId);
  const client = await redisOf(queue);
  const [total, counts] = await Promise.all([client.llen(keys.order), client.hgetall(keys.counts)]);
  if (total === 0) throw unknownBatch(queue, batchId);
  const created = Number(counts.created ?? 0);
  const recovered = Number(counts.recovered ?? 0);
  const failed = Number(counts.failed ?? 0);
  return { total, done: created + recovered + failed, created, recovered, failed };
}

/**
 * A job with no result that BullMQ no longer holds (removed by hand, or lost with its Redis
 * data): a failure whose outcome is unknown, so a reader never waits for it forever.
 */
function vanished(reference: string): PayOutBatchResult {
  return {
    reference,
    outcome: 'failed',
    error: new ConnectionError({
      message: `PayOut '${reference}': its job is no longer on the queue and left no result, so its outcome is unknown. Enqueue the same items again under a new batchId (the same batchId adds nothing for an item the batch holds): each reference is looked up first, recovered if it was sent, and never sent twice.`,
      outcome: 'unknown',
      reference,
    }),
  };
}

/** The halt every worker reports, as the engine words it. */
async function haltOf(client: RedisClient, key: string): Promise<string | undefined> {
  const stored = await client.get(key);
  if (!stored) return undefined;
  const error = decodeHalt(stored, key);
  if (error instanceof HaltRecordError) return `the batch may have stopped: ${error.message}`;
  const halt = new BatchHalt();
  halt.consider(error);
  return halt.summary();
}

/** The reference a job id was derived from (keys.ts jobIdOf). */
function referenceOf(jobId: string): string {
  return decodeURIComponent(jobId.slice(jobId.lastIndexOf('|') + 1));
}

function checkBatchId(batchId: unknown): void {
  if (typeof batchId !== 'string' || !BATCH_ID.test(batchId)) {
    throw new RequestValidationError('batch id', [
      {
        path: 'batchId',
        message: 'must be the batchId enqueuePayOuts returned (1-100 letters, digits, ".", "_" or "-")',
      },
    ]);
  }
}

function unknownBatch(queue: Queue, batchId: string): RequestValidationError {
  return new RequestValidationError('batch id', [
    {
      path: 'batchId',
      message: `no batch '${batchId}' on queue '${queue.name}'; use the batchId enqueuePayOuts returned, on the same queue and Redis`,
    },
  ]);
}
