/**
 * The one batch engine behind `client.payout.createMany()` and `payinout payouts send`: items
 * from an array or a stream, bounded concurrency, one shared rate-limit pause, results in input
 * order handed to a sink as they are ready (the CLI writes them out; createMany collects them).
 */
import { ConfigurationError } from '../core/errors.js';
import { CONCURRENCY, MAX_CONCURRENCY, RETRIES, shownValue } from '../core/options.js';
import { KeyedLock, PauseGate } from './gate.js';
import { BatchHalt } from './halt.js';
import { type ItemContext, settleItem } from './item.js';
import { mapOrdered } from './pool.js';
import type { BatchClient, PayOutBatchOptions, PayOutBatchProgress, PayOutBatchResult } from './types.js';

export const DEFAULT_CONCURRENCY = 4;
export { MAX_CONCURRENCY };

export interface BatchRun extends PayOutBatchOptions {
  /** The number of items, for progress; `createMany` knows it, the CLI counts the file first. */
  total: number;
  /** Receives each result in input order; the batch waits for it (backpressure). */
  sink: (result: PayOutBatchResult, index: number) => void | Promise<void>;
}

/** The final counts, and why the batch stopped itself when it did. */
export interface BatchSummary extends PayOutBatchProgress {
  /** A one-line reason when a batch-wide failure (e.g. refused credentials) stopped the batch. */
  stopped?: string;
}

/** Runs a batch to the end; resolves with the final counts. Rejects only on invalid options. */
export async function runPayOutBatch(
  client: BatchClient,
  items: Iterable<unknown> | AsyncIterable<unknown>,
  run: BatchRun,
): Promise<BatchSummary> {
  const concurrency = checkConcurrency(run.concurrency);
  const maxRetries = checkMaxRetries(run.maxRetries, client.maxRetries);
  const halt = new BatchHalt();
  const ctx: ItemContext = {
    client,
    gate: new PauseGate(),
    lock: new KeyedLock(),
    halt,
    maxRetries,
    signal: run.signal,
  };
  const progress: PayOutBatchProgress = { done: 0, total: run.total, created: 0, recovered: 0, failed: 0 };
  const { observers } = client;
  const task = async (item: unknown, at: number) => {
    // Observers hear each item (a tracer: a span, child of the batch's) through the dispatcher.
    const result = await (observers
      ? observers.around('item', { item, index: at }, () => settleItem(item, ctx))
      : settleItem(item, ctx));
    progress.done++;
    progress[result.outcome]++;
    report(run.onProgress, progress);
    return result;
  };
  let index = 0;
  // The window bounds results held behind one slow item; it never limits concurrency.
  for await (const result of mapOrdered(items, task, { concurrency, window: concurrency * 64 })) {
    await run.sink(result, index++);
  }
  const stopped = halt.summary();
  return stopped ? { ...progress, stopped } : { ...progress };
}

/** A throwing progress callback must not lose the batch's results (documented on the option). */
function report(onProgress: PayOutBatchOptions['onProgress'], progress: PayOutBatchProgress): void {
  try {
    onProgress?.({ ...progress });
  } catch {
    // ignored: the results are what matters
  }
}

export function checkConcurrency(value: unknown): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  if (CONCURRENCY.valid(value)) return value as number;
  throw new ConfigurationError(
    `concurrency must be ${CONCURRENCY.expects} (got ${shownValue(value)}); the default is ${DEFAULT_CONCURRENCY}.`,
  );
}

export function checkMaxRetries(value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (RETRIES.valid(value)) return value as number;
  throw new ConfigurationError(
    `maxRetries must be ${RETRIES.expects} (got ${shownValue(value)}); the default is the client's maxRetries.`,
  );
}
