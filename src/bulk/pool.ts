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
  let active = 0;
  let wake: (() => void) | undefined;
  let index = 0;
  for await (const item of source) {
    for (;;) {
      while (queue[0]?.settled) yield await queue.shift()!.promise;
      if (active < concurrency && queue.length < window) break;
      if (queue.length >= window) yield await queue.shift()!.promise;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
    active++;
    const slot = { settled: false } as Slot<R>;
    slot.promise = task(item, index++).finally(() => {
      slot.settled = true;
      active--;
      wake?.();
      wake = undefined;
    });
    queue.push(slot);
  }
  while (queue.length) yield await queue.shift()!.promise;
}
