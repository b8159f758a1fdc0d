/**
 * The engine's three batch-wide parts (settle.ts), shared by every worker of a queue through
 * Redis instead of one process's memory:
 * - SharedPause: a 429's Retry-After pauses every worker. Jobs in flight wait on a Redis key all
 *   workers read before each request; BullMQ's rate limiter (`worker.rateLimit`) stops every
 *   worker from taking new jobs for as long.
 * - ReferenceLease: one worker at a time settles a reference, across workers and batches. A
 *   stalled job can be handed to a second worker while the first is merely slow; the lease (with
 *   a fence token checked right before each create) keeps the second one waiting.
 * - SharedHalt: a batch-wide failure (401/403, a refused configuration) stops the batch for
 *   every worker: its remaining jobs are not sent, and readPayOutBatch says why.
 */
import type { RedisClient } from 'bullmq';
import type { PayinoutError } from '../core/errors.js';
import type { SharedPause as SharedPauseShape } from '../core/types.js';
import { decodeHalt, encodeError } from './codec.js';
import { HaltRecordError } from './errors.js';
import { pauseFor, pauseLeft, releaseLease, renewLease, saveHalt, takeLease } from './scripts.js';
import { BatchHalt, BatchHaltedError, KeyedLock, PauseGate } from './settle.js';

export class SharedPause extends PauseGate {
  constructor(
    private readonly redis: Promise<RedisClient>,
    private readonly key: string,
    /** Stops this worker from taking new jobs for `ms` (BullMQ's rate limiter, queue-wide). */
    private readonly limitQueue: (ms: number) => Promise<void>,
  ) {
    super();
  }

  /** `time` is on this host's clock (the Retry-After just read): only its length leaves the host. */
  override pauseUntil(time: number): void {
    super.pauseUntil(time);
    const ms = Math.ceil(time - Date.now());
    if (ms <= 0) return;
    // Best effort: a Redis failure here costs the other workers a 429 of their own, never money.
    void this.redis.then((client) => pauseFor(client, this.key, ms)).catch(() => undefined);
    void this.limitQueue(ms).catch(() => undefined);
  }

  /** Takes up a pause that lasts `ms` more by Redis's clock, timed from now on this host's. */
  pauseFor(ms: number): void {
    if (ms > 0) super.pauseUntil(Date.now() + ms);
  }

  /** This worker's own pause only, without reading Redis. */
  readyHere(signal?: AbortSignal): Promise<void> {
    return super.ready(signal);
  }

  override async ready(signal?: AbortSignal): Promise<void> {
    try {
      this.pauseFor(await pauseLeft(await this.redis, this.key));
    } catch {
      // Redis unreachable: this worker's own pause still holds.
    }
    await super.ready(signal);
  }
}

/**
 * One job's view of the queue's pause. Its create waits for the pause, then checks its fence,
 * then sends: `checked()` tells the request that follows at once not to read Redis again, so
 * nothing but this process's own work lies between the fence check and the request leaving.
 */
export class JobPause implements SharedPauseShape {
  #fresh = false;

  constructor(private readonly shared: SharedPause) {}

  pauseUntil(time: number): void {
    this.shared.pauseUntil(time);
  }

  /** The next request's wait reads this worker's own pause only (Redis was read just now). */
  checked(): void {
    this.#fresh = true;
  }

  ready(signal?: AbortSignal): Promise<void> {
    if (!this.#fresh) return this.shared.ready(signal);
    this.#fresh = false;
    return this.shared.readyHere(signal);
  }
}

/** How often a held lease is extended, as a share of its time to live. */
const RENEW_SHARE = 1 / 3;
const WAIT_MS = 100;
/**
 * The share of the lease's time to live this worker trusts: it counts from when each take or
 * renewal was sent, on its own clock, so a little is left for Redis's clock to run ahead.
 */
const TRUSTED_SHARE = 0.9;

/** The lease this worker holds on one reference, and until when it may act on it. */
interface Held {
  key: string;
  token: string;
  /** performance.now() past which another worker may hold the reference. */
  until: number;
}

export class ReferenceLease extends KeyedLock {
  #held: Held | undefined;

  constructor(
    private readonly redis: Promise<RedisClient>,
    private readonly keys: { lease: string; fence: string },
    private readonly ttlMs: number,
  ) {
    super();
  }

  override run<T>(reference: string, task: () => Promise<T>): Promise<T> {
    return super.run(reference, () => this.#holding(reference, task));
  }

  /**
   * Whether this worker still holds `reference`, extended in Redis right now. Redis out of reach
   * leaves the clock's answer: a lease cannot pass to another worker before it expires.
   */
  async stillHeld(reference: string): Promise<boolean> {
    const held = this.#held;
    if (!held || held.key !== this.keys.lease + reference) return false;
    await this.#renew(await this.redis, held).catch(() => undefined);
    return this.holdsNow(reference);
  }

  /**
   * Whether the lease on `reference` is still certainly this worker's, by its own clock and
   * without asking Redis: synchronous, for the moment right before a create's bytes leave. A
   * worker frozen (SIGSTOP, a long GC, a suspended VM) after its last renewal was sent finds it
   * expired, even when a "still yours" answer from before the freeze is only now being read.
   */
  holdsNow(reference: string): boolean {
    const held = this.#held;
    return held !== undefined && held.key === this.keys.lease + reference && performance.now() < held.until;
  }

  async #renew(client: RedisClient, held: Held): Promise<void> {
    const sent = performance.now();
    const renewed = await renewLease(client, held.key, held.token, this.ttlMs);
    held.until = renewed ? Math.max(held.until, sent + this.ttlMs * TRUSTED_SHARE) : 0;
  }

  async #holding<T>(reference: string, task: () => Promise<T>): Promise<T> {
    const client = await this.redis;
    const key = this.keys.lease + reference;
    const holder = Math.random().toString(36).slice(2);
    // Another worker holds it: it is settling this reference now. Wait; its lease ends when it
    // is done, or expires (ttl) when it died, and the lookup that follows sees what it did.
    const keys = { lease: key, fence: this.keys.fence };
    let sent = performance.now();
    let token = await takeLease(client, keys, holder, this.ttlMs);
    for (; token === null; token = await takeLease(client, keys, holder, this.ttlMs)) {
      await sleep(WAIT_MS);
      sent = performance.now();
    }
    const held: Held = { key, token, until: sent + this.ttlMs * TRUSTED_SHARE };
    this.#held = held;
    const renew = setInterval(
      () => void this.#renew(client, held).catch(() => undefined),
      Math.max(50, this.ttlMs * RENEW_SHARE),
    );
    try {
      return await task();
    } finally {
      clearInterval(renew);
      this.#held = undefined;
      await releaseLease(client, key, token).catch(() => undefined);
    }
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SharedHalt extends BatchHalt {
  /** The write of this worker's halt, awaited before the job's result is saved. */
  saved: Promise<unknown> = Promise.resolve();
  /** A halt record was found but could not be read: the batch is treated as stopped. */
  #unreadable: HaltRecordError | undefined;

  constructor(
    private readonly redis: Promise<RedisClient>,
    private readonly key: string,
  ) {
    super();
  }

  /** Takes up a halt another worker recorded (`stored`: the record, when already read). */
  async load(stored?: string | null): Promise<void> {
    const record = stored === undefined ? await (await this.redis).get(this.key) : stored;
    if (record) this.take(decodeHalt(record, this.key));
  }

  /** Takes up a recorded halt's error: an unreadable record stops the batch all the same. */
  take(error: PayinoutError): void {
    if (error instanceof HaltRecordError) this.#unreadable ??= error;
    else super.consider(error);
  }

  override get error(): PayinoutError | undefined {
    return super.error ?? this.#unreadable;
  }

  override notSent(reference: string): BatchHaltedError | undefined {
    const halted = super.notSent(reference);
    if (halted || !this.#unreadable) return halted;
    return new BatchHaltedError(reference, this.#unreadable, UNREADABLE.why, UNREADABLE.todo);
  }

  override consider(error: unknown): boolean {
    const first = super.error === undefined;
    const batchWide = super.consider(error);
    if (batchWide && first) {
      const record = encodeError(super.error as unknown as PayinoutError);
      this.saved = this.redis.then((client) => saveHalt(client, this.key, record)).catch(() => undefined);
    }
    return batchWide;
  }
}

/** Why a batch whose halt record cannot be read sends nothing more, as BatchHaltedError words it. */
export const UNREADABLE = {
  why: 'another worker recorded a halt for it that could not be read (truncated, or not written by payinout)',
  todo: "Check the workers' logs for a refused credential (401/403) or configuration and fix it.",
};
