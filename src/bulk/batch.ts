import type { PayOutCreateParams } from '../schemas/payout.js';
import { KeyedLock } from './gate.js';
import { payOutStep, referenceOf } from './item.js';
import {
  CREATE_MANY,
  checkMaxRetries,
  checkRunOptions,
  DEFAULT_CONCURRENCY,
  resultsInOrder,
} from './options.js';
import { type RunSummary, runMany } from './runner.js';
import type { BatchClient, PayOutBatchOptions, PayOutBatchProgress, PayOutBatchResult } from './types.js';

export { MAX_CONCURRENCY } from '../core/options.js';
export { checkConcurrency, checkMaxRetries } from './options.js';
export { DEFAULT_CONCURRENCY };

export interface BatchRun extends PayOutBatchOptions {
  /** The number of items, for progress; `createMany` knows it, the CLI counts the file first. */
  total: number;
  /** Receives each result in input order; the batch waits for it (backpressure). */
  sink: (result: PayOutBatchResult, index: number) => void | Promise<void>;
}

/** The final counts, and why the batch stopped itself when it did. */
export type BatchSummary = PayOutBatchProgress & RunSummary<PayOutBatchResult['outcome']>;

const OUTCOMES = ['created', 'recovered', 'failed'] as const;

/** Runs a batch to the end; resolves with the final counts. Rejects only on invalid options. */
export function runPayOutBatch(
  client: BatchClient,
  items: Iterable<unknown> | AsyncIterable<unknown>,
  run: BatchRun,
): Promise<BatchSummary> {
  const { total, sink, ...options } = run;
  checkRunOptions(CREATE_MANY.what, options, CREATE_MANY.rules);
  const maxRetries = checkMaxRetries(run.maxRetries, client.maxRetries);
  const { observers } = client;
  const step = payOutStep({ client, lock: new KeyedLock(), maxRetries });
  return runMany(items, step, {
    concurrency: run.concurrency,
    total,
    counts: OUTCOMES,
    countOf: (result) => result.outcome,
    signal: run.signal,
    onProgress: run.onProgress,
    sink,
    // Observers hear each item (a tracer: a span, child of the batch's) through the dispatcher.
    around:
      observers &&
      ((item, index, settle) =>
        observers.around('item', { item, index, reference: referenceOf(item) }, settle)),
  });
}

/** `client.payout.createMany()`: the results of an array of PayOuts, in its order. */
export async function createPayOutBatch(
  client: BatchClient,
  items: readonly PayOutCreateParams[],
  options: PayOutBatchOptions = {},
): Promise<PayOutBatchResult[]> {
  return resultsInOrder<PayOutBatchResult>(CREATE_MANY, items, options, (sink) => {
    const run = () => runPayOutBatch(client, items, { ...options, total: items.length, sink });
    // Observers hear the batch (a tracer: one span, each item a child) through the dispatcher.
    const { observers } = client;
    const start = { operation: 'payout.createMany', total: items.length } as const;
    return observers ? observers.around('batch', start, run) : run();
  });
}
