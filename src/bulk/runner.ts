/**
 * The one runner for "many": `payout.createMany`, `payinout payouts send`,
 * `transactions.getMany`, `payinout transactions check`, and a payinout/bullmq worker's chunk of
 * jobs all run their items through {@link runMany}. What it gives every caller:
 * - ordered, bounded concurrency (pool.ts): at most `concurrency` items in flight, the source
 *   pulled only when a slot is free (a 100,000-row file is never held), results handed to `sink`
 *   in input order, and the run waits for the sink (backpressure);
 * - one shared pause and one halt for the run (run.ts `Run`): in memory by default, or the
 *   caller's (the queue's pause and halt live in Redis). Every call an item makes in `run.lane`
 *   waits on the pause; a 429 or Retry-After on any of them pauses every lane at once;
 * - progress: after every settled item `onProgress` gets the counts (an exception it throws is
 *   ignored: the results are what matters);
 * - the summary: the final counts and, when the run stopped itself, the halt's one-line reason.
 *
 * What it does not know: what an item is. The per-item `step` (item.ts `payOutStep`: lookup
 * first, then create, recovered or failed; lookup-step.ts for getMany) settles one item, must
 * never reject, and decides what an aborted or halted run means for an item it has not sent.
 */
import type { SharedPause } from '../core/types.js';
import { PauseGate } from './gate.js';
import { BatchHalt } from './halt.js';
import { checkConcurrency } from './options.js';
import { mapOrdered } from './pool.js';
import type { AroundItem, Run, RunHalt, Step } from './run.js';

/** Rate-limit pauses tolerated per call of an item: a rate limit slows a run, it does not fail items. */
export const MAX_ITEM_PAUSES = 30;

/** The counts a run reports: settled items, the total, and one count per kind of result. */
export type Progress<K extends string> = { done: number; total: number } & { [key in K]: number };

/** The final counts, and why the run stopped itself when it did. */
export type RunSummary<K extends string> = Progress<K> & {
  /** A one-line reason when a run-wide failure (e.g. refused credentials) stopped the run. */
  stopped?: string;
};

export interface RunOptions<R, K extends string> {
  /** Items in flight at once: 1 to 64, default 4 (a ConfigurationError otherwise, before any item). */
  concurrency?: number | undefined;
  /** The number of items, for progress (the CLI counts its file first). */
  total: number;
  /** The kinds of result, each a count of the progress (e.g. created, recovered, failed). */
  counts: readonly K[];
  /** The count a settled result adds one to. */
  countOf: (result: R) => K;
  /** No item starts after it aborts; what a started item does with it is the step's. */
  signal?: AbortSignal | undefined;
  /** The shared pause; default an in-memory one for this run (gate.ts). */
  pause?: SharedPause | undefined;
  /** The halt; default an in-memory one for this run (halt.ts). */
  halt?: RunHalt | undefined;
  /**
   * Wraps each item's step: a span per item (the step's calls nest under it). What it throws or
   * resolves never becomes the item's result, and the step runs exactly once either way.
   */
  around?: AroundItem<R> | undefined;
  /** Called after every settled item, in completion order. An exception it throws is ignored. */
  onProgress?: ((progress: Progress<K>) => void) | undefined;
  /** Receives each result in input order; the run waits for it (backpressure). */
  sink: (result: R, index: number) => void | Promise<void>;
}

/**
 * Runs every item of `items` (an array or a stream) through `step`; resolves with the final
 * counts once the sink has every result. Rejects only on invalid options (before any item) or
 * when the sink or the source rejects (the source is then closed).
 */
export async function runMany<R, K extends string>(
  items: Iterable<unknown> | AsyncIterable<unknown>,
  step: Step<R>,
  options: RunOptions<R, K>,
): Promise<RunSummary<K>> {
  const concurrency = checkConcurrency(options.concurrency);
  const run = runOf(options);
  const progress = startProgress(options);
  const { around } = options;
  const task = async (item: unknown, index: number): Promise<R> => {
    const result = await (around
      ? settleAround(around, item, index, () => step(item, run, index))
      : step(item, run, index));
    progress.done++;
    progress[options.countOf(result)]++;
    report(options.onProgress, progress);
    return result;
  };
  let index = 0;
  // The window bounds results held behind one slow item; it never limits concurrency.
  for await (const result of mapOrdered(items, task, { concurrency, window: concurrency * 64 })) {
    // A sink that returns nothing (the queue's, createMany's) costs no await per item.
    const sunk = options.sink(result, index++);
    if (sunk) await sunk;
  }
  const stopped = run.halt.summary();
  return stopped ? { ...progress, stopped } : { ...progress };
}

/**
 * One item through the same step, run (shared pause and halt) and wrapper as {@link runMany},
 * without its pool: a queue job of one PayOut has nothing to order, bound or count, and the pool's
 * generator and per-item promises were a fixed cost of every such job. Only payinout/bullmq calls
 * it, so a bundle of `PaymentClient` leaves it out.
 */
export function runOne<R>(
  item: unknown,
  step: Step<R>,
  options: Pick<RunOptions<R, never>, 'pause' | 'halt' | 'around'>,
): Promise<R> {
  const run = runOf(options);
  const { around } = options;
  return around ? settleAround(around, item, 0, () => step(item, run, 0)) : step(item, run, 0);
}

/**
 * The item's result, whatever `around` does: it may cost its span, never the result, a second
 * settle or a hang. The step runs once — when `around` calls it, or after `around` returns or
 * throws without having called it — and its own result is kept: what `around` resolves (a
 * wrapper that forgets to return) is ignored, and once the step has settled the item does not
 * wait for an `around` that never ends.
 */
async function settleAround<R>(
  around: AroundItem<R>,
  item: unknown,
  index: number,
  settle: () => Promise<R>,
): Promise<R> {
  let started: Promise<R> | undefined;
  let announce!: (settling: Promise<R>) => void;
  const settled = new Promise<R>((resolve) => {
    announce = resolve;
  });
  const once = () => {
    if (!started) {
      started = settle();
      announce(started);
    }
    return started;
  };
  const wrapped = (async () => around(item, index, once))().then(
    () => undefined,
    () => undefined, // a throwing wrapper costs its span, never the item
  );
  await Promise.race([wrapped, settled]);
  return once();
}

/** The parts every item of one run shares, and the lane built from them. */
export function runOf(parts: {
  pause?: SharedPause | undefined;
  halt?: RunHalt | undefined;
  signal?: AbortSignal | undefined;
}): Run {
  const pause = parts.pause ?? new PauseGate();
  const halt = parts.halt ?? new BatchHalt();
  const { signal } = parts;
  const lane = {
    pause,
    maxPauses: MAX_ITEM_PAUSES,
    signal,
    stopped: () => signal?.aborted === true || halt.error !== undefined,
  };
  return { pause, halt, signal, lane };
}

function startProgress<K extends string>(options: { total: number; counts: readonly K[] }): Progress<K> {
  const progress: Record<string, number> = { done: 0, total: options.total };
  for (const key of options.counts) progress[key] = 0;
  return progress as Progress<K>;
}

function report<K extends string>(onProgress: ((p: Progress<K>) => void) | undefined, progress: Progress<K>) {
  try {
    onProgress?.({ ...progress });
  } catch {
    // ignored (documented on the option): the results are what matters
  }
}
