/**
 * The engine's three batch-wide parts (settle.ts), shared by every worker of a queue through
 * Redis instead of one process's memory:
 * - SharedPause: a 429's Retry-After pauses every worker. The pause is a Redis key whose time to
 *   live is the pause (Redis's clock), announced on a channel every worker listens to, so jobs in
 *   flight wait at once; BullMQ's rate limiter (`worker.rateLimit`) stops every worker from
 *   taking new jobs for as long. The leases of a job are in lease.ts.
 * - SharedHalt: a batch-wide failure (401/403, a refused configuration) stops the batch for
 *   every worker: its remaining jobs are not sent, and readPayOutBatch says why.
 */
import type { RedisClient } from 'bullmq';
import type { PayinoutError } from '../core/errors.js';
import { decodeHalt, encodeError } from './codec.js';
import { HaltRecordError } from './errors.js';
import { pauseFor, saveHalt } from './scripts.js';
import { BatchHalt, BatchHaltedError, PauseGate } from './settle.js';

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

  /** Whether announcements reach this worker now: subscribed, and none missed since. */
  #hearing = false;
  /** The subscription was lost and is back: announcements of the gap were missed. */
  #gap = false;

  /**
   * Whether a job must read the pause from Redis: this worker is not (or not yet) subscribed, or
   * was not for a while. A subscribed worker hears every announcement the moment it is made, so
   * its jobs read nothing (a job's first script skips the PTTL).
   */
  unheard(): boolean {
    if (!this.#hearing) return true;
    if (!this.#gap) return false;
    this.#gap = false;
    return true;
  }

  /**
   * Hears every pause another worker announces (scripts.ts PAUSE_FOR publishes it), on a
   * connection of its own: requests then wait on this process's memory, never on a Redis read.
   * While that connection is away, and for the first job after it is back, each job's first
   * script reads the pause instead; one announced in the instant between costs this worker a 429
   * of its own, which pauses it too.
   * @returns closes the connection
   */
  listen(): () => void {
    let closed = false;
    let subscriber: Subscriber | undefined;
    void this.redis
      .then(async (client) => {
        if (closed) return;
        subscriber = client.duplicate() as unknown as Subscriber;
        let subscribed = false;
        subscriber.on('error', () => undefined); // the worker's own connection reports trouble
        subscriber.on('message', (_channel: string, ms: string) => this.pauseFor(Number(ms)));
        subscriber.on('close', () => {
          this.#hearing = false;
        });
        // ioredis subscribes again on its own once reconnected; what was said meanwhile is lost.
        subscriber.on('ready', () => {
          if (this.#hearing) return;
          this.#gap = true;
          this.#hearing = subscribed;
        });
        await subscriber.subscribe(this.key);
        subscribed = true;
        this.#hearing = true;
      })
      .catch(() => undefined);
    return () => {
      closed = true;
      this.#hearing = false;
      subscriber?.disconnect();
    };
  }
}

interface Subscriber {
  on(event: string, listener: (...args: string[]) => void): unknown;
  subscribe(channel: string): Promise<unknown>;
  disconnect(): void;
}

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
