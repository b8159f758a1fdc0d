/**
 * `maxTransactions`: which transactions the simulator forgets so that a week of CI runs fits in
 * memory. Beyond the limit the oldest transactions in a final status go first; a CREATED or
 * PENDING one is never dropped (something may still confirm it or wait for its webhook).
 *
 * O(1) amortised per create, whatever the mix: tickets wait in creation order; one found still
 * pending when its turn comes is set aside, and joins a second line (ahead of everything still
 * waiting, since it is older) once it becomes final. Each ticket is looked at a bounded number
 * of times; nothing is shifted or scanned.
 */
import { ConfigurationError } from '../core/errors.js';

/** A first-in first-out line of tickets on an array: take() is O(1), the dead head is cut off in bulk. */
class Line {
  #items: string[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(ticket: string): void {
    this.#items.push(ticket);
  }

  take(): string | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const ticket = this.#items[this.#head++];
    // Cut the consumed head once it is most of the array: amortised O(1) per take.
    if (this.#head > 1_024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return ticket;
  }
}

/** What the retention asks of the state it trims. */
export interface RetainedStore {
  readonly size: number;
  /** The transaction's status is final (it may be dropped); undefined when it is gone already. */
  isFinal(ticket: string): boolean | undefined;
  /** Forgets the transaction, its indexes, history and webhook deliveries. */
  drop(ticket: string): void;
}

export class Retention {
  /** undefined: keep everything (the default). */
  readonly max: number | undefined;
  /** Transactions dropped so far (the dashboard shows it). */
  dropped = 0;
  readonly #waiting = new Line();
  /** Passed over while CREATED/PENDING. */
  readonly #setAside = new Set<string>();
  /** Set aside, then final: older than anything still waiting, so dropped first. */
  readonly #finalSetAside = new Line();

  constructor(max: number | undefined) {
    if (max !== undefined && !(Number.isSafeInteger(max) && max >= 1)) {
      throw new ConfigurationError(`maxTransactions must be a positive integer (got ${String(max)}).`);
    }
    this.max = max;
  }

  /** A new transaction (any status). */
  created(ticket: string, store: RetainedStore): void {
    if (this.max === undefined) return;
    this.#waiting.push(ticket);
    this.trim(store);
  }

  /** A transaction just reached a final status. */
  finalized(ticket: string, store: RetainedStore): void {
    if (this.max === undefined) return;
    if (this.#setAside.delete(ticket)) this.#finalSetAside.push(ticket);
    this.trim(store);
  }

  /** Drops the oldest final transactions while there are more than `max`. */
  trim(store: RetainedStore): void {
    if (this.max === undefined) return;
    while (store.size > this.max) {
      const ticket = this.#finalSetAside.take() ?? this.#waiting.take();
      if (ticket === undefined) return; // everything left is CREATED or PENDING
      const final = store.isFinal(ticket);
      if (final === undefined) continue;
      if (final) {
        store.drop(ticket);
        this.dropped++;
      } else this.#setAside.add(ticket);
    }
  }
}
