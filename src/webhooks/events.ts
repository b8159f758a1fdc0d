/**
 * The observer event of a webhook receiver (core/observer.ts): a delivery starts. Its notes are
 * filled while it is processed (which merchant signed it, the verified event, the failure), and
 * the work resolves with the handler's answer.
 */
import type { DeliveryNotes } from './pipeline.js';

export interface DeliveryStart {
  /** The request's method, as received. */
  method: string | undefined;
  notes: DeliveryNotes;
}

export interface DeliveryEvents {
  delivery: DeliveryStart;
}
