/** What the simulator records of each webhook delivery and attempt (`sandbox.deliveries`). */
import type { WebhookEventInput } from '../schemas/webhook.js';
import type { FaultRule } from './faults/rule.js';

/** One attempt of a {@link WebhookDelivery}: what the dashboard's delivery log shows. */
export interface WebhookAttempt {
  /** Sandbox clock time of the attempt (ms since epoch). */
  at: number;
  /** Where it was sent (ipn_url, or the `forwardWebhooksTo` URL). */
  url: string;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** The first 200 characters of the answer's body. */
  answer?: string;
  /** Network error or timeout, when there was no answer. */
  error?: string;
  /** Clock time of the retry this attempt's failure scheduled; undefined after a 200 or the last try. */
  nextAttemptAt?: number;
  /** The fault rule that fired on this attempt (`faults` with operation 'webhook'). */
  fault?: { readonly rule: string; readonly kind: FaultRule['kind'] };
  /** `duplicate`: what the second copy, sent at the same time, got. */
  duplicate?: { status?: number; error?: string };
}

/** A webhook the simulator sends (and retries on the spec's schedule), as recorded in `sandbox.deliveries`. */
export interface WebhookDelivery {
  readonly id: number;
  readonly url: string;
  /** The username of the transaction's merchant. */
  readonly merchant: string;
  readonly ticket: string;
  readonly reference: string;
  readonly status: string;
  readonly payload: WebhookEventInput;
  /** Exact bytes sent. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly attempts: WebhookAttempt[];
  /** The delivery this one repeats (the dashboard's `Resend webhook`, `sandbox.resendWebhook()`). */
  readonly resendOf?: number;
  /** A late PENDING event a `reorder` fault added after this delivery (its id) was first sent. */
  readonly reorderOf?: number;
  /** 'delivered' after a 200; 'failed' after 1 + 5 unconfirmed attempts; 'disabled' when webhooks are off. */
  state: 'pending' | 'delivered' | 'failed' | 'disabled';
  /** Clock time of the next scheduled attempt, while pending. */
  nextAttemptAt: number | undefined;
}
