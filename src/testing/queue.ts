/**
 * A FIFO work queue with a concurrency limit. The simulator's webhook deliveries go through
 * one: a burst of 10k confirms must not open 10k sockets at once (memory grows with every
 * request in flight), so at most `limit` run and the rest wait their turn.
 */
export class BoundedQueue {
  readonly #limit: number;
  #waiting: (() => Promise<void>)[] = [];
  #head = 0;
  #running = 0;
  readonly #idle = new Set<() => void>();

  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('The queue limit must be a positive integer.');
    this.#limit = limit;
  }

  /** Tasks started and not finished. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for a free slot. */
  get waiting(): number {
    return this.#waiting.length - this.#head;
  }

  push(task: () => Promise<void>): void {
    this.#waiting.push(task);
    this.#pump();
  }

  /** Resolves when nothing runs and nothing waits. */
  idle(): Promise<void> {
    if (this.#running === 0 && this.waiting === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  /** Drops the tasks that have not started. */
  clear(): void {
    this.#waiting = [];
    this.#head = 0;
  }

  #pump(): void {
    while (this.#running < this.#limit && this.#head < this.#waiting.length) {
      const task = this.#waiting[this.#head]!;
      this.#waiting[this.#head++] = undefined as never;
      // Compact now and then so a long burst does not keep a huge sparse array.
      if (this.#head > 1024 && this.#head * 2 > this.#waiting.length) {
        this.#waiting = this.#waiting.slice(this.#head);
        this.#head = 0;
      }
      this.#running++;
      task()
        .catch(() => {})
        .finally(() => {
          this.#running--;
          this.#pump();
        });
    }
    if (this.#running === 0 && this.waiting === 0) {
      for (const resolve of this.#idle) resolve();
      this.#idle.clear();
    }
  }
}
