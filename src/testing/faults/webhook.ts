/**
 * Faults on webhook deliveries: what a rule with operation 'webhook' is matched against, and
 * the late PENDING delivery of a `reorder` (the simulator sends final statuses only, so the
 * "earlier" event a reordering network would deliver last is a PENDING one, validly signed:
 * the signature covers the ticket and reference only, spec "Events").
 */
import { isFinalStatus } from '../../schemas/catalog.js';
import type { WebhookEventInput } from '../../schemas/webhook.js';
import { STATUS_MESSAGES } from '../state.js';
import type { FaultTarget } from './rules.js';

interface DeliveryFacts {
  readonly merchant: string;
  readonly reference: string;
  readonly status: string;
  readonly attempts: readonly unknown[];
  readonly reorderOf?: number;
}

/** The attempt about to be made, as fault rules see it. */
export function webhookTarget(delivery: DeliveryFacts): FaultTarget {
  return {
    operation: 'webhook',
    merchant: delivery.merchant,
    subject: `${delivery.reference} ${delivery.status}`,
    // Only a final status's first attempt: the PENDING a reorder adds is never reordered again.
    reorderable:
      delivery.attempts.length === 0 && delivery.reorderOf === undefined && isFinalStatus(delivery.status),
  };
}

/** The same transaction's event, as if sent while it was still PENDING. */
export function pendingPayload(payload: WebhookEventInput): WebhookEventInput {
  return { ...payload, top_status: 'PENDING', top_response_message: STATUS_MESSAGES.PENDING ?? 'PENDING' };
}
