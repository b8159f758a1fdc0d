/**
 * Webhook deliveries (spec "Events"): POST JSON to ipn_url with x-trx-signature and a
 * `<service>/1.1` User-Agent; receipt is a 200 answer; otherwise 5 retries, 5, 15, 30, 60 and
 * 120 minutes after the previous attempt, on the sandbox clock and scaled by timeScale.
 */
import type { WebhookEventInput } from '../schemas/webhook.js';
import { computeWebhookSignature } from '../webhooks/signature.js';
import type { SandboxClock } from './clock.js';
import { BoundedQueue } from './queue.js';
import type { SandboxMerchant, SandboxTransaction } from './types.js';
import { buildPayload } from './webhook-payload.js';

/** The spec's "service name and version 1.1" User-Agent (spec "Events", rule 2); the name is ours. */
export const SANDBOX_WEBHOOK_USER_AGENT = 'payinout-sandbox/1.1';

/** Minutes between attempts: 1st retry 5 min after the first attempt, then 15, 30, 60, 120. */
export const WEBHOOK_RETRY_MINUTES = [5, 15, 30, 60, 120] as const;

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
  /** The delivery this one repeats (the dashboard's `Resend webhook`, `sandbox.resendWebhook()`). */
  readonly resendOf?: number;
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
  /** Deliver every webhook here instead of the transaction's ipn_url. */
  forwardTo?: string | undefined;
  /** Attempts in flight at once; the rest wait in a queue. */
  concurrency?: number | undefined;
}

/** Attempts in flight at once by default: enough for any local receiver, bounded under a burst. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 16;
/** How much of a receiver's answer the delivery log keeps. */
export const ANSWER_EXCERPT_CHARS = 200;

type Listener = (delivery: WebhookDelivery) => void;

export class WebhookDeliverer {
  readonly #all: WebhookDelivery[] = [];
  /** ticket → its deliveries, oldest first (the dashboard's view, resend, `forget`). */
  readonly #byTicket = new Map<string, WebhookDelivery[]>();
  /** Dropped with their transaction, still in `#all` until the next compaction. */
  readonly #forgotten = new WeakSet<WebhookDelivery>();
  #forgottenCount = 0;
  #lastId = 0;
  readonly #options: DelivererOptions;
  readonly #queue: BoundedQueue;
  readonly #timers = new Set<unknown>();
  readonly #listeners = new Set<Listener>();
  readonly #changeListeners = new Set<Listener>();
  #closed = false;

  constructor(options: DelivererOptions) {
    this.#options = options;
    this.#queue = new BoundedQueue(options.concurrency ?? DEFAULT_WEBHOOK_CONCURRENCY);
  }

  /** Where this transaction's webhooks go: the forward URL, its ipn_url, or nowhere. */
  targetFor(transaction: SandboxTransaction): string | undefined {
    return this.#options.forwardTo ?? transaction.ipn_url;
  }

  enqueue(transaction: SandboxTransaction, merchant: SandboxMerchant): void {
    const url = this.targetFor(transaction);
    if (!url) return;
    const payload = buildPayload(transaction);
    const headers = {
      'content-type': 'application/json',
      'user-agent': this.#options.userAgent,
      'x-trx-signature': computeWebhookSignature({
        token: merchant.token,
        ticket: transaction.ticket,
        reference: transaction.reference,
      }),
    };
    this.#start(
      { url, payload, body: JSON.stringify(payload), headers, status: transaction.status },
      transaction,
    );
  }

  /** Sends the last event of this ticket again, as a new delivery; undefined when it never had one. */
  resend(ticket: string): WebhookDelivery | undefined {
    const last = this.#byTicket.get(ticket)?.at(-1);
    if (!last) return undefined;
    const url = this.#options.forwardTo ?? last.url;
    return this.#start({ ...last, url, resendOf: last.id }, last);
  }

  /** This ticket's deliveries, oldest first. */
  deliveriesOf(ticket: string): readonly WebhookDelivery[] {
    return this.#byTicket.get(ticket) ?? [];
  }

  /**
   * Drops the records of a dropped transaction's deliveries (`maxTransactions`). A scheduled
   * retry still goes out. The list is compacted in place when read, or once half of it is
   * dropped, so each drop costs O(1) amortised.
   */
  forget(ticket: string): void {
    const dropped = this.#byTicket.get(ticket);
    if (!dropped) return;
    this.#byTicket.delete(ticket);
    for (const delivery of dropped) this.#forgotten.add(delivery);
    this.#forgottenCount += dropped.length;
    if (this.#forgottenCount >= 1_024 && this.#forgottenCount * 2 >= this.#all.length) this.#compact();
  }

  /** Every delivery kept, in order (read it from here: dropped ones leave on the next read). */
  get deliveries(): WebhookDelivery[] {
    if (this.#forgottenCount > 0) this.#compact();
    return this.#all;
  }

  #compact(): void {
    let kept = 0;
    for (const delivery of this.#all) {
      if (!this.#forgotten.has(delivery)) this.#all[kept++] = delivery;
    }
    this.#all.length = kept;
    this.#forgottenCount = 0;
  }

  /** Called after each attempt. */
  onAttempt(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Called when a delivery is created or attempted (the dashboard's live updates). */
  onChange(listener: Listener): () => void {
    this.#changeListeners.add(listener);
    return () => this.#changeListeners.delete(listener);
  }

  /** Resolves when no attempt is in flight or queued (scheduled retries are not awaited). */
  flush(): Promise<void> {
    return this.#queue.idle();
  }

  close(): void {
    this.#closed = true;
    for (const handle of this.#timers) this.#options.clock.clearTimeout(handle);
    this.#timers.clear();
    this.#queue.clear();
  }

  #start(
    fields: Pick<WebhookDelivery, 'url' | 'payload' | 'body' | 'headers' | 'status'> & { resendOf?: number },
    of: { ticket: string; reference: string },
  ): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: ++this.#lastId,
      url: fields.url,
      ticket: of.ticket,
      reference: of.reference,
      status: fields.status,
      payload: fields.payload,
      body: fields.body,
      headers: fields.headers,
      attempts: [],
      ...(fields.resendOf === undefined ? {} : { resendOf: fields.resendOf }),
      state: this.#options.enabled ? 'pending' : 'disabled',
      nextAttemptAt: undefined,
    };
    this.#all.push(delivery);
    const ofTicket = this.#byTicket.get(of.ticket);
    if (ofTicket) ofTicket.push(delivery);
    else this.#byTicket.set(of.ticket, [delivery]);
    // First attempt on the next turn, so the confirm answer goes out before the webhook.
    if (this.#options.enabled && !this.#closed) this.#schedule(delivery, 0);
    this.#changed(delivery);
    return delivery;
  }

  #schedule(delivery: WebhookDelivery, delayMs: number): void {
    const { clock } = this.#options;
    delivery.nextAttemptAt = clock.now() + delayMs;
    const handle = clock.setTimeout(() => {
      this.#timers.delete(handle);
      this.#queue.push(() => this.#attempt(delivery));
    }, delayMs);
    this.#timers.add(handle);
  }

  async #attempt(delivery: WebhookDelivery): Promise<void> {
    if (this.#closed) return;
    const record: WebhookAttempt = { at: this.#options.clock.now(), url: delivery.url };
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
      record.answer = await excerpt(response);
    } catch (error) {
      record.error = error instanceof Error ? describeError(error) : String(error);
    }
    // Spec "Events", rule 3: receipt is confirmed by answering 200 (not any 2xx).
    if (record.status === 200) delivery.state = 'delivered';
    else {
      const retry = delivery.attempts.length - 1;
      const minutes = WEBHOOK_RETRY_MINUTES[retry];
      if (minutes === undefined || this.#closed) delivery.state = 'failed';
      else {
        this.#schedule(delivery, minutes * 60_000 * this.#options.timeScale);
        record.nextAttemptAt = delivery.nextAttemptAt!;
      }
    }
    for (const listener of this.#listeners) listener(delivery);
    this.#changed(delivery);
  }

  #changed(delivery: WebhookDelivery): void {
    for (const listener of this.#changeListeners) listener(delivery);
  }
}

/** The start of the answer's body, read without holding more than a few KB of it. */
async function excerpt(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < ANSWER_EXCERPT_CHARS) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text.length > ANSWER_EXCERPT_CHARS ? `${text.slice(0, ANSWER_EXCERPT_CHARS)}…` : text;
}

/** 'fetch failed (ECONNREFUSED)' rather than a bare 'fetch failed'. */
function describeError(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  const text = `${error.name}: ${error.message}`;
  return detail ? `${text} (${detail})` : text;
}
