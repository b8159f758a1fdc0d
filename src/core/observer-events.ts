/**
 * The events of work made of many calls, and of a request the engine serves, as the observer
 * seam (observer.ts) carries them: plain shapes, so an observer (the OpenTelemetry wing in
 * src/tracing/) needs nothing from the code that tells them. A runner of "many" (src/bulk/,
 * payinout/bullmq) tells `batch`, `item` and `job`; the webhook receiver tells `delivery`. The
 * caller works out what an event carries (an item's reference) before telling it.
 */

/** A batch of many starts (`createMany`); its work resolves with its {@link BatchCounts}. */
export interface BatchStart {
  operation: string;
  total: number;
}

/** What a batch's work resolves with. */
export interface BatchCounts {
  done: number;
  created: number;
  recovered: number;
  failed: number;
}

/** One item of a batch starts; its work resolves with its {@link ItemSettled}. */
export interface ItemStart {
  /** The item as given, unvalidated: only to find its credentials and PII, never shown. */
  item: unknown;
  /** Its merchant reference ('' when it has none), read by the runner. */
  reference: string;
  index: number;
}

/** One queue job (or one item of a chunk job) starts: its item, the queue and the batch. */
export interface JobStart {
  item: unknown;
  reference: string;
  queue: string;
  batchId: string;
}

/** What an item's or a job's work resolves with. */
export interface ItemSettled {
  outcome: 'created' | 'recovered' | 'failed';
  ticket?: string | undefined;
  /** Why it failed; an error whose `outcome` is 'unknown' could not be settled either way. */
  error?: unknown;
}

/** The events of "many". */
export interface ManyEvents {
  batch: BatchStart;
  item: ItemStart;
  job: JobStart;
}

/** What the receiver learns of a delivery while it processes it (filled as it goes). */
export interface DeliveryNotes {
  /** The verified event: its ticket and status name it (never customer data). */
  event?: { top_ticket: string; top_status: unknown } | undefined;
  /** The record key (or array index) of the token that signed it. */
  merchant?: string | number | undefined;
  /** The first failure met, for the error type of its span. */
  error?: unknown;
}

/** A delivery starts; its work resolves with the receiver's {@link DeliveryAnswer}. */
export interface DeliveryStart {
  /** The request's method, as received. */
  method: string | undefined;
  notes: DeliveryNotes;
}

/** How the receiver answered a delivery, and why (a verdict such as `processed`). */
export interface DeliveryAnswer {
  status: number;
  verdict: string;
}

/** The event of a request the engine serves. */
export interface DeliveryEvents {
  delivery: DeliveryStart;
}
