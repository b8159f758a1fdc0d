/**
 * The observer events of "many" (core/observer.ts): what a runner tells the client's observers
 * when a batch, one of its items, or a queue job starts. The work each wraps resolves with the
 * batch's summary or the item's result, which is what the observer's scope hears at its end.
 */

/** A `createMany` batch starts. */
export interface BatchStart {
  operation: 'payout.createMany';
  total: number;
}

/** One item of a batch starts (its params as given, unvalidated). */
export interface ItemStart {
  item: unknown;
  index: number;
}

/** One queue job starts: its PayOut params, the queue and the batch it came from. */
export interface JobStart {
  item: unknown;
  queue: string;
  batchId: string;
}

export interface BatchEvents {
  batch: BatchStart;
  item: ItemStart;
  job: JobStart;
}
