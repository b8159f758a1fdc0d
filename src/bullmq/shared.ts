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
import { pauseFor, pauseLeft, saveHalt } from './scripts.js';
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

  /** Whether announcements reach this worker now: subscribed, and the pause read since. */
  #hearing = false;
  /** The subscriber connection's life: a new one at each close, so a catch-up of an old one counts for nothing. */
  #life = 0;
  /** The life whose catch-up began (one per connection). */
  #caught = -1;
  /**
   * Settles once the first subscription was answered and the pause read, or could not be, or
   * HEAR_WAIT_MS after listening began, whichever comes first: a worker whose subscription hangs
   * costs its first jobs one wait, not every job one.
   */
  #first: Promise<void> = Promise.resolve();

  /**
   * Whether a job must read the pause from Redis: this worker is not (or not yet, or no longer)
   * subscribed. A subscribed worker hears every announcement the moment it is made, so its jobs
   * read nothing (a job's first script skips the PTTL).
   */
  unheard(): boolean {
    return !this.#hearing;
  }

  /**
   * Resolves once this worker hears announcements, or HEAR_WAIT_MS after it began listening (its
   * jobs then read the pause themselves): a job started before the subscription was answered
   * would miss a pause announced meanwhile for every request after its first script.
   */
  heard(): Promise<void> {
    return this.#first;
  }

  /**
   * Hears every pause another worker announces (scripts.ts PAUSE_FOR publishes it), on a
   * connection of its own: requests then wait on this process's memory, never on a Redis read.
   * What was announced before a subscription is answered (the first one, or again after the
   * connection was lost) is missed, so once it is answered the pause is read from its key: jobs
   * already in flight wait for it too. Until then each job's first script reads the pause.
   * @returns closes the connection
   */
  listen(): () => void {
    let closed = false;
    let subscriber: Subscriber | undefined;
    const subscribed = this.redis
      .then(async (client) => {
        if (closed) return;
        const own = client.duplicate() as unknown as Subscriber;
        subscriber = own;
        own.on('error', () => undefined); // the worker's own connection reports trouble
        own.on('message', (_channel: string, ms: string) => this.pauseFor(Number(ms)));
        own.on('close', () => {
          this.#life += 1;
          this.#hearing = false;
        });
        // ioredis subscribes again once reconnected but tells no one when that is answered:
        // subscribing once more (nothing new for Redis) is what can be awaited.
        own.on('ready', () => void this.#catchUp(client, own).catch(() => undefined));
        await this.#catchUp(client, own);
      })
      .catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, HEAR_WAIT_MS);
      timer.unref?.();
    });
    this.#first = Promise.race([subscribed, late]).finally(() => clearTimeout(timer));
    return () => {
      closed = true;
      this.#hearing = false;
      subscriber?.disconnect();
    };
  }

  /** Subscribes, then reads the pause: what was said before is in the key, what comes after is heard. */
  async #catchUp(client: RedisClient, subscriber: Subscriber): Promise<void> {
    const life = this.#life;
    if (this.#caught === life) return;
    this.#caught = life;
    await subscriber.subscribe(this.key);
    this.pauseFor(await pauseLeft(client, this.key));
    if (life === this.#life) this.#hearing = true;
  }
}

/**
 * How long a worker's first jobs wait, at most, for it to hear announcements (normally a few ms,
 * once, when the worker starts) before they go on reading the pause from Redis themselves.
 */
const HEAR_WAIT_MS = 2_000;

interface Subscriber {
  on(event: string, listener: (...args: string[]) => void): unknown;
  subscribe(channel: string): Promise<unknown>;
  disconnect(): void;
}

export class SharedHalt extends BatchHalt {
  /** The write of this worker's halt, awaited before the job's result is saved (none: nothing to wait for). */
  saved: Promise<unknown> | undefined;
  /** A halt record was found but could not be read: the batch is treated as stopped. */
  #unreadable: HaltRecordError | undefined;

  constructor(
    private readonly redis: Promise<RedisClient>,
    private readonly key: string,
  ) {
    super();
  }

  /** Takes up the halt record another worker saved, read by the job's first script (null: none). */
  take(record: string | null): void {
    if (!record) return;
    const error = decodeHalt(record, this.key);
    // An unreadable record stops the batch all the same.
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
