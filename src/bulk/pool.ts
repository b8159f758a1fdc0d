/**
 * Bounded, ordered concurrency over a stream: at most `concurrency` tasks run, results come out
 * in input order, and at most `window` results wait for a slow head. The source is pulled only
 * when a slot is free, so a 100,000-row file is never held in memory.
 */
export interface PoolOptions {
  concurrency: number;
  /** Most results held back behind an unfinished earlier item. */
  window: number;
}

interface Slot<R> {
  settled: boolean;
  promise: Promise<R>;
}

/** Maps `source` through `task` (which must not reject) and yields in input order. */
export async function* mapOrdered<T, R>(
  source: Iterable<T> | AsyncIterable<T>,
  task: (item: T, index: number) => Promise<R>,
  { concurrency, window }: PoolOptions,
): AsyncGenerator<R> {
  const queue: Slot<R>[] = [];
  const state: Running = { active: 0, wake: undefined };
  let index = 0;
  const iterator = iterate(source);
  let step: IteratorResult<T> = { done: false, value: undefined as T };
  try {
    for (step = await iterator.next(); !step.done; step = await iterator.next()) {
      for (;;) {
        while (queue[0]?.settled) yield await queue.shift()!.promise;
        if (state.active < concurrency && queue.length < window) break;
        if (queue.length >= window) yield await queue.shift()!.promise;
        else await new Promise<void>((resolve) => (state.wake = resolve));
      }
      queue.push(start(task(step.value, index++), state));
    }
    while (queue.length) yield await queue.shift()!.promise;
  } finally {
    // Stopped early (the consumer threw): the source is closed, as `for await` would close it.
    if (!step.done) await iterator.return?.();
  }
}

interface Running {
  active: number;
  wake: (() => void) | undefined;
}

function start<R>(promise: Promise<R>, state: Running): Slot<R> {
  state.active++;
  const slot = { settled: false } as Slot<R>;
  slot.promise = promise.finally(() => {
    slot.settled = true;
    state.active--;
    state.wake?.();
    state.wake = undefined;
  });
  return slot;
}

/**
 * The source's iterator. Not `for await`: over an array it would await each item, reading its
 * `then` (a throwing getter or a revoked Proxy would reject the whole batch; a thenable item
 * would be run).
 */
function iterate<T>(source: Iterable<T> | AsyncIterable<T>): Iterator<T> | AsyncIterator<T> {
  return Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : source[Symbol.iterator]();
}
