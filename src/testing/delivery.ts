/**
 * Webhook deliveries (spec "Events"): POST JSON to ipn_url with x-trx-signature and a
 * `<service>/1.1` User-Agent; receipt is a 200 answer; otherwise 5 retries, 5, 15, 30, 60 and
 * 120 minutes after the previous attempt, on the sandbox clock and scaled by timeScale.
 */
import { computeWebhookSignature } from '../webhooks/signature.js';
import type { SandboxClock } from './clock.js';
import type { WebhookAttempt, WebhookDelivery } from './delivery-record.js';
import { sendOnce } from './delivery-send.js';
import type { FaultRule } from './faults/rule.js';
import type { FaultRules } from './faults/rules.js';
import { pendingPayload, webhookTarget } from './faults/webhook.js';
import { BoundedQueue } from './queue.js';

export type { WebhookAttempt, WebhookDelivery };

import type { SandboxMerchant, SandboxTransaction } from './types.js';
import { buildPayload } from './webhook-payload.js';

/** The spec's "service name and version 1.1" User-Agent (spec "Events", rule 2); the name is ours. */
export const SANDBOX_WEBHOOK_USER_AGENT = 'payinout-sandbox/1.1';

/** Minutes between attempts: 1st retry 5 min after the first attempt, then 15, 30, 60, 120. */
export const WEBHOOK_RETRY_MINUTES = [5, 15, 30, 60, 120] as const;

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
  /** The sandbox's fault rules; those with operation 'webhook' act on attempts. */
  faults?: FaultRules | undefined;
}

/** Attempts in flight at once by default: enough for any local receiver, bounded under a burst. */
export const DEFAULT_WEBHOOK_CONCURRENCY = 16;

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
      merchant.username,
    );
  }

  /** Sends the last event of this ticket again, as a new delivery; undefined when it never had one. */
  resend(ticket: string): WebhookDelivery | undefined {
    // The late PENDING a `reorder` fault added is not an event of the transaction: never resent.
    const last = this.#byTicket.get(ticket)?.findLast((d) => d.reorderOf === undefined);
    if (!last) return undefined;
    const url = this.#options.forwardTo ?? last.url;
    return this.#start({ ...last, url, resendOf: last.id }, last, last.merchant);
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
    fields: Pick<WebhookDelivery, 'url' | 'payload' | 'body' | 'headers' | 'status'> & {
      resendOf?: number;
      reorderOf?: number;
    },
    of: { ticket: string; reference: string },
    merchant: string,
  ): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: ++this.#lastId,
      url: fields.url,
      merchant,
      ticket: of.ticket,
      reference: of.reference,
      status: fields.status,
      payload: fields.payload,
      body: fields.body,
      headers: fields.headers,
      attempts: [],
      ...(fields.resendOf === undefined ? {} : { resendOf: fields.resendOf }),
      ...(fields.reorderOf === undefined ? {} : { reorderOf: fields.reorderOf }),
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

  /** `delayed`: the attempt's fault was drawn already (a `delay` that put it off). */
  #schedule(delivery: WebhookDelivery, delayMs: number, delayed?: FaultRule): void {
    const { clock } = this.#options;
    delivery.nextAttemptAt = clock.now() + delayMs;
    const handle = clock.setTimeout(() => {
      this.#timers.delete(handle);
      this.#queue.push(() => this.#attempt(delivery, delayed));
    }, delayMs);
    this.#timers.add(handle);
  }

  async #attempt(delivery: WebhookDelivery, delayed?: FaultRule): Promise<void> {
    if (this.#closed) return;
    const rule = delayed ?? this.#options.faults?.match(webhookTarget(delivery));
    // A delay waits outside the queue, so it holds no slot another delivery could use.
    if (rule?.kind === 'delay' && !delayed) return this.#schedule(delivery, rule.ms ?? 0, rule);
    const record: WebhookAttempt = { at: this.#options.clock.now(), url: delivery.url };
    if (rule) record.fault = { rule: rule.id, kind: rule.kind };
    delivery.nextAttemptAt = undefined;
    delivery.attempts.push(record);
    await this.#send(delivery, record, rule);
    this.#settle(delivery, record);
    if (rule?.kind === 'reorder' && !this.#closed) this.#sendLatePending(delivery);
    for (const listener of this.#listeners) listener(delivery);
    this.#changed(delivery);
  }

  /** One POST, two at once for a `duplicate`, none for a `drop` (recorded as failed, so it is retried). */
  async #send(delivery: WebhookDelivery, record: WebhookAttempt, rule: FaultRule | undefined): Promise<void> {
    const send = this.#options.fetch ?? globalThis.fetch;
    const { timeoutMs } = this.#options;
    if (rule?.kind === 'drop') {
      record.error = `not sent: dropped by sandbox fault rule ${rule.id}`;
      return;
    }
    const copies = rule?.kind === 'duplicate' ? 2 : 1;
    const [first, second] = await Promise.all(
      Array.from({ length: copies }, () => sendOnce(send, delivery, timeoutMs)),
    );
    Object.assign(record, first);
    if (second) record.duplicate = { ...pick(second) };
  }

  /** The late PENDING event of this transaction a `reorder` sends after its final one. */
  #sendLatePending(delivery: WebhookDelivery): void {
    const payload = pendingPayload(delivery.payload);
    const { url, headers } = delivery;
    const late = { url, headers, payload, body: JSON.stringify(payload), status: 'PENDING' };
    this.#start({ ...late, reorderOf: delivery.id }, delivery, delivery.merchant);
  }

  /** Delivered on a 200; else the next retry of the schedule, or failed after the last. */
  #settle(delivery: WebhookDelivery, record: WebhookAttempt): void {
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
  }

  #changed(delivery: WebhookDelivery): void {
    for (const listener of this.#changeListeners) listener(delivery);
  }
}

function pick(outcome: { status?: number; error?: string }): { status?: number; error?: string } {
  return {
    ...(outcome.status === undefined ? {} : { status: outcome.status }),
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
  };
}
