/**
 * Bounded, ordered concurrency over a stream: at most `concurrency` tasks run, results reach the
 * sink in input order, and at most `window` results wait for a slow head. The source is pulled
 * only when a slot is free, so a 100,000-row file is never held in memory.
 *
 * Pushed to a sink rather than yielded: an async generator costs several turns of the microtask
 * queue per item (a `yield`, the consumer's `for await`, a `finally` per task), which with a queue
 * job of one PayOut was a fixed cost per job, and the sink is called with no await at all when its
 * result is ready and it returns nothing. A sync source (an array) is read without an await.
 */
export interface PoolOptions<R> {
  concurrency: number;
  /** Most results held back behind an unfinished earlier item. */
  window: number;
  /** Called with each result as its task settles, in completion order; what it throws fails the run. */
  settled?: ((result: R) => void) | undefined;
}

/** A started task: its result, read without an await once it has settled. */
interface Slot<R> {
  done: boolean;
  failed: boolean;
  value: R | undefined;
  error: unknown;
  settling: Promise<void>;
}

interface Running {
  active: number;
  wake: (() => void) | undefined;
}

/**
 * Runs `task` (which must not reject) over `source` and hands each result to `sink` in input
 * order, waiting for a sink that returns a promise (backpressure). Rejects when the source, a task
 * or the sink does; the source is then closed, as `for await` would close it.
 */
export async function forEachOrdered<T, R>(
  source: Iterable<T> | AsyncIterable<T>,
  task: (item: T, index: number) => Promise<R>,
  sink: (result: R, index: number) => void | Promise<void>,
  { concurrency, window, settled }: PoolOptions<R>,
): Promise<void> {
  const held: Slot<R>[] = [];
  const state: Running = { active: 0, wake: undefined };
  let sunk = 0;
  const emit = (slot: Slot<R>): void | Promise<void> => {
    if (!slot.done) return slot.settling.then(() => emit(slot));
    if (slot.failed) throw slot.error;
    return sink(slot.value as R, sunk++);
  };
  const isAsync = Symbol.asyncIterator in source;
  const iterator = iterate(source);
  const pull = () => (isAsync ? iterator.next() : (iterator as Iterator<T>).next());
  let index = 0;
  let step: IteratorResult<T> = { done: false, value: undefined as T };
  try {
    for (step = await pull(); !step.done; step = isAsync ? await pull() : (pull() as IteratorResult<T>)) {
      for (;;) {
        // Only a sink that returns a promise, or an unsettled head, costs an await.
        while (held[0]?.done) {
          const waiting = emit(held.shift()!);
          if (waiting) await waiting;
        }
        if (state.active < concurrency && held.length < window) break;
        if (held.length >= window) await emit(held.shift()!);
        else await new Promise<void>((resolve) => (state.wake = resolve));
      }
      held.push(start(task(step.value, index++), state, settled));
    }
    while (held.length) {
      const waiting = emit(held.shift()!);
      if (waiting) await waiting;
    }
  } finally {
    if (!step.done) await iterator.return?.();
  }
}

function start<R>(promise: Promise<R>, state: Running, settled?: (result: R) => void): Slot<R> {
  state.active++;
  const slot: Slot<R> = { done: false, failed: false, value: undefined, error: undefined } as Slot<R>;
  const done = () => {
    slot.done = true;
    state.active--;
    const wake = state.wake;
    state.wake = undefined;
    wake?.();
  };
  const failed = (error: unknown) => {
    slot.failed = true;
    slot.error = error;
    done();
  };
  slot.settling = promise.then((value) => {
    try {
      settled?.(value);
    } catch (error) {
      return failed(error);
    }
    slot.value = value;
    done();
  }, failed);
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
