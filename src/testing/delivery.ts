/**
 * Webhook deliveries (spec "Events"): POST JSON to ipn_url with x-trx-signature and a
 * `<service>/1.1` User-Agent; receipt is a 200 answer; otherwise 5 retries, 5, 15, 30, 60 and
 * 120 minutes after the previous attempt, on the sandbox clock and scaled by timeScale.
 */
import type { WebhookEventInput } from '../schemas/webhook.js';
import { computeWebhookSignature } from '../webhooks/signature.js';
import type { SandboxClock } from './clock.js';
import { publicCustomer } from './records.js';
import type { SandboxMerchant, SandboxTransaction } from './types.js';

/** The spec's "service name and version 1.1" User-Agent (spec "Events", rule 2); the name is ours. */
export const SANDBOX_WEBHOOK_USER_AGENT = 'payinout-sandbox/1.1';

/** Minutes between attempts: 1st retry 5 min after the first attempt, then 15, 30, 60, 120. */
export const WEBHOOK_RETRY_MINUTES = [5, 15, 30, 60, 120] as const;

/** One attempt of a {@link WebhookDelivery}. */
export interface WebhookAttempt {
  /** Sandbox clock time of the attempt (ms since epoch). */
  at: number;
  /** HTTP status of the answer, when there was one. */
  status?: number;
  /** Network error or timeout, when there was no answer. */
  error?: string;
}

/** A webhook the simulator sends (and retries on the spec's schedule), as recorded in `sandbox.deliveries`. */
export interface WebhookDelivery {
  readonly id: number;
  readonly url: string;
  readonly ticket: string;
  readonly reference: string;
  readonly status: string;
  readonly payload: WebhookEventInput;
  /** Exact bytes sent. */
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly attempts: WebhookAttempt[];
  /** 'delivered' after a 200; 'failed' after 1 + 5 unconfirmed attempts; 'disabled' when webhooks are off. */
  state: 'pending' | 'delivered' | 'failed' | 'disabled';
  /** Clock time of the next scheduled attempt, while pending. */
  nextAttemptAt: number | undefined;
}

export interface DelivererOptions {
  clock: SandboxClock;
  timeScale: number;
  fetch: typeof fetch | undefined;
  enabled: boolean;
  userAgent: string;
  timeoutMs: number;
}

type Listener = (delivery: WebhookDelivery) => void;

export class WebhookDeliverer {
  readonly deliveries: WebhookDelivery[] = [];
  readonly #options: DelivererOptions;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #timers = new Set<unknown>();
  readonly #listeners = new Set<Listener>();
  #closed = false;

  constructor(options: DelivererOptions) {
    this.#options = options;
  }

  enqueue(transaction: SandboxTransaction, merchant: SandboxMerchant): void {
    const url = transaction.ipn_url;
    if (!url) return;
    const payload = buildPayload(transaction);
    const body = JSON.stringify(payload);
    const headers = {
      'content-type': 'application/json',
      'user-agent': this.#options.userAgent,
      'x-trx-signature': computeWebhookSignature({
        token: merchant.token,
        ticket: transaction.ticket,
        reference: transaction.reference,
      }),
    };
    const delivery: WebhookDelivery = {
      id: this.deliveries.length + 1,
      url,
      ticket: transaction.ticket,
      reference: transaction.reference,
      status: transaction.status,
      payload,
      body,
      headers,
      attempts: [],
      state: this.#options.enabled ? 'pending' : 'disabled',
      nextAttemptAt: undefined,
    };
    this.deliveries.push(delivery);
    if (!this.#options.enabled || this.#closed) return;
    // First attempt on the next turn, so the confirm answer goes out before the webhook.
    this.#schedule(delivery, 0);
  }

  onAttempt(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves when no attempt is in flight (scheduled retries are not awaited). */
  async flush(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  close(): void {
    this.#closed = true;
    for (const handle of this.#timers) this.#options.clock.clearTimeout(handle);
    this.#timers.clear();
  }

  #schedule(delivery: WebhookDelivery, delayMs: number): void {
    const { clock } = this.#options;
    delivery.nextAttemptAt = clock.now() + delayMs;
    const handle = clock.setTimeout(() => {
      this.#timers.delete(handle);
      const attempt = this.#attempt(delivery).finally(() => this.#inFlight.delete(attempt));
      this.#inFlight.add(attempt);
    }, delayMs);
    this.#timers.add(handle);
  }

  async #attempt(delivery: WebhookDelivery): Promise<void> {
    if (this.#closed) return;
    const { clock } = this.#options;
    const record: WebhookAttempt = { at: clock.now() };
    delivery.nextAttemptAt = undefined;
    delivery.attempts.push(record);
    try {
      const send = this.#options.fetch ?? globalThis.fetch;
      const response = await send(delivery.url, {
        method: 'POST',
        headers: delivery.headers,
        body: delivery.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.#options.timeoutMs),
      });
      record.status = response.status;
      await response.body?.cancel().catch(() => {});
    } catch (error) {
      record.error = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    // Spec "Events", rule 3: receipt is confirmed by answering 200 (not any 2xx).
    if (record.status === 200) delivery.state = 'delivered';
    else {
      const retry = delivery.attempts.length - 1;
      const minutes = WEBHOOK_RETRY_MINUTES[retry];
      if (minutes === undefined || this.#closed) delivery.state = 'failed';
      else this.#schedule(delivery, minutes * 60_000 * this.#options.timeScale);
    }
    for (const listener of this.#listeners) listener(delivery);
  }
}

/** The top_* payload (spec "Events", payload fields; inner names of top_user/top_card as in schemas/webhook.ts). */
function buildPayload(transaction: SandboxTransaction): WebhookEventInput {
  const payload: WebhookEventInput = {
    top_status: transaction.status,
    top_ticket: transaction.ticket,
    top_reference: transaction.reference,
    top_amount: transaction.amount,
    top_currency: transaction.currency,
    top_payment_method: transaction.payment_method,
    top_bank_name: bankName(transaction),
    top_response_message: transaction.responseMessage,
    top_user: publicCustomer(transaction.customer),
  };
  if (transaction.card) payload.top_card = transaction.card;
  return payload;
}

function bankName(transaction: SandboxTransaction): string | null {
  if (transaction.type === 'PAYOUT') return transaction.customer.bank ?? null;
  const info = transaction.paymentInformation;
  if (info && typeof info.bank_name === 'string') return info.bank_name;
  if (info && typeof info.bank === 'string') return info.bank;
  return transaction.card?.bank ?? null;
}
