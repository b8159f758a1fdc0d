/**
 * `client.transactions.getMany()` and `payinout transactions check` on the runner (runner.ts):
 * many lookups with the same ordered concurrency, shared pause and halt as a PayOut batch — a
 * 429 on one lookup pauses every lane, refused credentials stop the rest — one result per id in
 * input order, never a rejection for one id (the public API contract, "Catching up after missed
 * webhooks"; guide: node_modules/payinout/docs/catch-up.md or https://github.com/payinout/payinout/blob/main/docs/catch-up.md).
 */
import { NotFoundError, PayinoutError } from '../core/errors.js';
import { type CallOptions, LANE } from '../core/types.js';
import type { Transaction } from '../schemas/transaction.js';
import { LookupAbortedError, LookupHaltedError } from './errors.js';
import type {
  TransactionLookupOptions,
  TransactionLookupProgress,
  TransactionLookupResult,
} from './lookup-types.js';
import { GET_MANY, resultsInOrder } from './options.js';
import type { Run, Step } from './run.js';
import { type RunSummary, runMany } from './runner.js';

export { LookupAbortedError, LookupHaltedError };

/** One lookup, as `client.transactions.get` makes it (the options carry the run's lane). */
export type LookupOne = (id: string, options?: CallOptions) => Promise<Transaction>;

export interface LookupRun extends TransactionLookupOptions {
  total: number;
  /** Receives each result in input order; the run waits for it (backpressure). */
  sink: (result: TransactionLookupResult, index: number) => void | Promise<void>;
}

const OUTCOMES = ['found', 'notFound', 'failed'] as const;

/** Looks up every id of `ids` (an array or a stream) and hands each result, in order, to `sink`. */
export function runLookups(
  get: LookupOne,
  ids: Iterable<unknown> | AsyncIterable<unknown>,
  run: LookupRun,
): Promise<TransactionLookupProgress & RunSummary<(typeof OUTCOMES)[number]>> {
  return runMany(ids, lookupStep(get), {
    concurrency: run.concurrency,
    total: run.total,
    counts: OUTCOMES,
    countOf: (result) => (result.outcome === 'not_found' ? 'notFound' : result.outcome),
    signal: run.signal,
    onProgress: run.onProgress,
    sink: run.sink,
  });
}

/** `getMany`: the results of an array of ids, in its order. */
export async function lookupMany(
  get: LookupOne,
  ids: readonly string[],
  options: TransactionLookupOptions = {},
): Promise<TransactionLookupResult[]> {
  return resultsInOrder<TransactionLookupResult>(GET_MANY, ids, options, (sink) =>
    runLookups(get, ids, { ...options, total: ids.length, sink }),
  );
}

/** The runner's step for lookups: one id looked up in the run's lane; never rejects. */
export function lookupStep(get: LookupOne): Step<TransactionLookupResult> {
  return async (id, run) => {
    const result = haltedResult(id, run) ?? (await lookupOne(get, id, run));
    if (result.error) run.halt.consider(result.error);
    return result;
  };
}

/** The result of an id not looked up because the lookups stopped; undefined while they run. */
function haltedResult(id: unknown, run: Run): TransactionLookupResult | undefined {
  const { error, reason } = run.halt;
  if (!error || !reason) return undefined;
  const shown = String(id);
  return failed(shown, new LookupHaltedError(shown, error, reason.why, reason.todo));
}

async function lookupOne(get: LookupOne, id: unknown, run: Run): Promise<TransactionLookupResult> {
  const shown = String(id);
  const { signal } = run;
  if (signal?.aborted) return failed(shown, new LookupAbortedError(shown, signal.reason));
  try {
    // The caller's signal cancels a lookup in flight (unlike a create's, which is settled).
    const options: CallOptions = signal ? { signal, [LANE]: run.lane } : { [LANE]: run.lane };
    const transaction = await get(id as string, options);
    return { id: shown, outcome: 'found', transaction };
  } catch (error) {
    if (error instanceof NotFoundError) return { id: shown, outcome: 'not_found', error };
    if (error instanceof PayinoutError) return failed(shown, error);
    // An aborted signal rejects a call with the caller's own reason, which is no PayinoutError.
    if (signal?.aborted) return failed(shown, new LookupAbortedError(shown, signal.reason));
    // Not expected from the transport; still one id's failure, never the batch's. The foreign
    // message is not repeated: it was not scrubbed.
    return failed(
      shown,
      new PayinoutError(`Transaction '${shown}' could not be looked up; look it up again.`, { cause: error }),
    );
  }
}

function failed(id: string, error: PayinoutError): TransactionLookupResult {
  return { id, outcome: 'failed', error };
}
