/**
 * `client.transactions.getMany()` and `payinout transactions check`: many lookups, bounded
 * concurrency, one result per id in input order, never a rejection for one id (the public API
 * contract, "Catching up after missed webhooks"; guide: node_modules/payinout/docs/catch-up.md or https://github.com/payinout/payinout/blob/main/docs/catch-up.md).
 */
import { checkConcurrency } from '../bulk/batch.js';
import { BatchHalt } from '../bulk/halt.js';
import { mapOrdered } from '../bulk/pool.js';
import { ConfigurationError, NotFoundError, PayinoutError } from '../core/errors.js';
import { optionProblems } from '../core/options.js';
import type { RequestOptions } from '../core/transport.js';
import type { Transaction } from '../schemas/transaction.js';

/**
 * What one lookup of `client.transactions.getMany()` (or one row of `payinout transactions
 * check`) showed:
 * - `found`: `transaction` is the one whose ticket or reference is `id`;
 * - `not_found`: the service shows no transaction with that ticket or reference (`error` is the
 *   `NotFoundError`);
 * - `failed`: the lookup did not say either way (network, 5xx, refused credentials, an invalid
 *   id, an aborted batch): `error` says why; look it up again later.
 */
export interface TransactionLookupResult {
  /** The ticket or reference as given. */
  id: string;
  outcome: 'found' | 'not_found' | 'failed';
  /** The transaction, for `found`. */
  transaction?: Transaction;
  /** Why it was not found or failed; absent for `found`. */
  error?: PayinoutError;
}

/** Counts passed to `onProgress` after every settled lookup. */
export interface TransactionLookupProgress {
  /** Lookups settled so far (found + notFound + failed). */
  done: number;
  total: number;
  found: number;
  notFound: number;
  failed: number;
}

/** Options of `client.transactions.getMany()`. */
export interface TransactionLookupOptions {
  /** How many lookups are in flight at once; default 4, at most 64 (as `payout.createMany`). */
  concurrency?: number;
  /**
   * Stops the lookups: none starts after it aborts and those in flight are cancelled; each of
   * them is `failed` with a {@link LookupAbortedError}. Results already settled are kept.
   */
  signal?: AbortSignal;
  /** Called after every settled lookup, in completion order. An exception it throws is ignored. */
  onProgress?: (progress: TransactionLookupProgress) => void;
}

/** The lookup of this id was not made, or was cancelled, because the caller aborted the batch. */
export class LookupAbortedError extends PayinoutError {
  override name = 'LookupAbortedError';
  /** The ticket or reference that was not looked up. */
  readonly id: string;
  constructor(id: string, reason: unknown) {
    super(`Transaction '${id}' was not looked up: the lookups were aborted. Look it up again.`, {
      cause: reason,
    });
    this.id = id;
  }
}

/**
 * The lookup of this id was not made because an earlier one met a failure every lookup would meet
 * (the credentials refused, a Retry-After beyond 60 s): the lookups stop instead of sending one
 * refused request per id.
 */
export class LookupHaltedError extends LookupAbortedError {
  override name = 'LookupHaltedError';
  /** The failure that stopped the lookups, as the lookup that met it got it. */
  readonly stoppedBy: PayinoutError;
  constructor(id: string, stoppedBy: PayinoutError, why: string, todo: string) {
    super(id, stoppedBy);
    this.message = `Transaction '${id}' was not looked up: the lookups stopped because ${why}, which every lookup would meet. ${todo} Then look it up again.`;
    this.stoppedBy = stoppedBy;
  }
}

/** One lookup, as `client.transactions.get` makes it. */
export type LookupOne = (id: string, options?: RequestOptions) => Promise<Transaction>;

export interface LookupRun extends TransactionLookupOptions {
  total: number;
  /** Receives each result in input order; the run waits for it (backpressure). */
  sink: (result: TransactionLookupResult, index: number) => void | Promise<void>;
}

/** Looks up every id of `ids` (an array or a stream) and hands each result, in order, to `sink`. */
export async function runLookups(
  get: LookupOne,
  ids: Iterable<unknown> | AsyncIterable<unknown>,
  run: LookupRun,
): Promise<TransactionLookupProgress> {
  const concurrency = checkConcurrency(run.concurrency);
  const { signal } = run;
  const progress = { done: 0, total: run.total, found: 0, notFound: 0, failed: 0 };
  const halt = new BatchHalt();
  const task = async (id: unknown): Promise<TransactionLookupResult> => {
    const result = haltedResult(id, halt) ?? (await lookupOne(get, id, signal));
    if (result.error) halt.consider(result.error);
    progress.done++;
    progress[result.outcome === 'not_found' ? 'notFound' : result.outcome]++;
    try {
      run.onProgress?.({ ...progress });
    } catch {
      // ignored (documented on the option): the results are what matters
    }
    return result;
  };
  let index = 0;
  for await (const result of mapOrdered(ids, task, { concurrency, window: concurrency * 64 })) {
    await run.sink(result, index++);
  }
  return progress;
}

/** `getMany`: the results of an array of ids, in its order. */
export async function lookupMany(
  get: LookupOne,
  ids: readonly string[],
  options: TransactionLookupOptions = {},
): Promise<TransactionLookupResult[]> {
  if (!Array.isArray(ids)) {
    throw new ConfigurationError('getMany takes an array of tickets or references.');
  }
  checkOptions(options);
  const results: TransactionLookupResult[] = new Array(ids.length);
  await runLookups(get, ids, {
    ...options,
    total: ids.length,
    sink: (result, index) => {
      results[index] = result;
    },
  });
  return results;
}

/** The result of an id not looked up because the lookups stopped; undefined while they run. */
function haltedResult(id: unknown, halt: BatchHalt): TransactionLookupResult | undefined {
  const { error } = halt;
  const { reason } = halt;
  if (!error || !reason) return undefined;
  const shown = String(id);
  return failed(shown, new LookupHaltedError(shown, error, reason.why, reason.todo));
}

async function lookupOne(
  get: LookupOne,
  id: unknown,
  signal?: AbortSignal,
): Promise<TransactionLookupResult> {
  const shown = String(id);
  if (signal?.aborted) return failed(shown, new LookupAbortedError(shown, signal.reason));
  try {
    const transaction = await get(id as string, signal ? { signal } : {});
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

/** Each option and the `typeof` it must have (a signal from another realm passes too). */
const OPTION_TYPES: Readonly<Record<string, string>> = {
  concurrency: 'number',
  signal: 'object',
  onProgress: 'function',
};

function checkOptions(options: object): void {
  // Options, not request fields: worded as the client's own ("unknown option; did you mean …").
  const [unknown] = optionProblems(options ?? {}, Object.keys(OPTION_TYPES));
  if (unknown) throw new ConfigurationError(`getMany ${unknown.key}: ${unknown.message}`);
  for (const [key, value] of Object.entries(options ?? {})) {
    const type = OPTION_TYPES[key] as string;
    if (value !== undefined && (typeof value !== type || value === null)) {
      throw new ConfigurationError(
        `getMany option ${key} must be ${type === 'object' ? 'an AbortSignal' : `a ${type}`}.`,
      );
    }
  }
}
