/**
 * The leases of one job: one worker at a time settles a reference, across workers and batches. A
 * stalled job can be handed to a second worker while the first is merely slow; the lease (with a
 * fence checked right before each create's bytes leave) keeps the second one waiting.
 *
 * Time: a lease's expiry is Redis's (TIME inside the scripts); this worker trusts 90 % of it
 * counted on its own monotonic clock from when each take or renewal was sent. No time crosses hosts.
 * The fencing rule (core/lease.ts) is the webhook dedupe's too; here the store is the scripts.
 * Cost: the job's references are taken in the job's first script (chunk-scripts.ts START_JOB),
 * renewed with the other jobs' of the worker (LeaseRenewal: one script a beat), and released in
 * its last (END_JOB), all in the queue's one lease hash: a few commands per job, whatever its
 * size, not per PayOut.
 */
import type { RedisClient } from 'bullmq';
import { holdsAt, type LeaseTerms, renewalBeatMs, trustedUntil, untilAfterRenewal } from '../core/lease.js';
import { type JobStart, type LeaseRef, renewLeases, type StartReads, startJob } from './chunk-scripts.js';
import { KeyedLock } from './settle.js';

/** The shortest interval between renewals of a job's leases. */
const MIN_RENEW_MS = 50;
const WAIT_MS = 100;
/** The share of the lease's time to live this worker trusts (Redis's clock may run ahead). */
const TRUSTED_SHARE = 0.9;

/** A lease this worker holds on one reference, and until when it may act on it. */
export interface Held extends LeaseRef {
  /** performance.now() past which another worker may hold the reference. */
  until: number;
}

/**
 * The renewals of every job's leases on one worker: one timer per worker, not one per job, and
 * one RENEW_LEASES script per beat for all the leases its jobs hold (they are all in the queue's
 * one lease hash). A job's leases are renewed at the latest one beat after they were taken, as a
 * timer of its own would; the timer stops whenever no job is left.
 */
export class LeaseRenewal {
  readonly #jobs = new Set<JobLease>();
  readonly #terms: LeaseTerms;
  #timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Promise<RedisClient>,
    /** The queue's lease hash. */
    private readonly leases: string,
    readonly ttlMs: number,
  ) {
    this.#terms = { ttlMs, trustedShare: TRUSTED_SHARE };
  }

  get terms(): LeaseTerms {
    return this.#terms;
  }

  add(job: JobLease): void {
    this.#jobs.add(job);
    this.#timer ??= setInterval(
      () => void this.#beat().catch(() => undefined),
      renewalBeatMs(this.ttlMs, MIN_RENEW_MS),
    );
  }

  /** A job done: once no job holds leases, no timer is left to keep the process alive. */
  delete(job: JobLease): void {
    this.#jobs.delete(job);
    if (this.#jobs.size > 0) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  async #beat(): Promise<void> {
    const held = [...this.#jobs].flatMap((job) => job.held());
    if (held.length === 0) return;
    const client = await this.redis;
    const sent = performance.now();
    const flags = await renewLeases(client, this.leases, held, this.ttlMs);
    for (const [i, renewed] of flags.entries()) {
      const lease = held[i]!;
      lease.until = untilAfterRenewal(this.#terms, lease.until, sent, renewed);
    }
  }
}

/** This process's part of every holder name: random, so two processes never share one. */
const PROCESS = Math.random().toString(36).slice(2, 10);
let jobsLeased = 0;

export class JobLease {
  readonly #held = new Map<string, Held>();
  /** Two items of the job with one reference: one at a time (created for a job of several). */
  #local: KeyedLock | undefined;
  /** Unique per job: the process's part and a count (a token is also stamped with Redis's time). */
  readonly #holder = `${PROCESS}.${(jobsLeased++).toString(36)}`;

  constructor(
    private readonly redis: Promise<RedisClient>,
    /** The queue's lease hash, and the keys the job's first script reads beside it. */
    private readonly keys: { leases: string; pause: string; halt: string },
    /** The worker's renewals, which this job's leases join from its start to its finish. */
    private readonly renewal: LeaseRenewal,
  ) {}

  /**
   * The job's first round trip: takes every free reference of `references`, and reads the
   * shared pause (when `reads.pause`: this worker has not heard every announcement) and the
   * batch's halt with them.
   */
  async start(
    client: RedisClient,
    references: readonly string[],
    reads: { pause: boolean },
  ): Promise<JobStart> {
    if (references.length > 1) this.#local = new KeyedLock();
    const unique = distinct(references);
    const start = await this.#take(client, unique, { pause: reads.pause, halt: true });
    this.renewal.add(this);
    return start;
  }

  /** Runs `task` holding `reference`: at once when the job took it, else once its holder is done. */
  run<T>(reference: string, task: () => Promise<T>): Promise<T> {
    const held = () => (this.#held.has(reference) ? task() : this.#wait(reference).then(task));
    return this.#local ? this.#local.run(reference, held) : held();
  }

  /**
   * Whether the lease on `reference` is still certainly this worker's, by its own clock and
   * without asking Redis: synchronous, for the moment right before a create's bytes leave. A
   * worker frozen (SIGSTOP, a long GC, a suspended VM) past its lease finds it expired, even when
   * a renewal's "still yours" from before the freeze is only now being read.
   */
  holdsNow(reference: string): boolean {
    const held = this.#held.get(reference);
    return held !== undefined && holdsAt(held.until, performance.now());
  }

  /** The leases this job holds now (renewed in place by the worker's LeaseRenewal). */
  held(): Held[] {
    return [...this.#held.values()];
  }

  /** Stops renewing; what is still held, for the job's last script to release. */
  finish(): Held[] {
    this.renewal.delete(this);
    const held = this.held();
    this.#held.clear();
    return held;
  }

  /**
   * Another worker holds it: it is settling this reference now. Wait; its lease ends when it is
   * done, or expires when it died, and the lookup that follows sees what it did.
   */
  async #wait(reference: string): Promise<void> {
    const client = await this.redis;
    for (;;) {
      const { tokens } = await this.#take(client, [reference], { pause: false, halt: false });
      if (tokens[0]) return;
      await new Promise((resolve) => setTimeout(resolve, WAIT_MS));
    }
  }

  /** Takes what is free of `references` (one script), trusted from when it was sent. */
  #take(client: RedisClient, references: string[], reads: StartReads): Promise<JobStart> {
    const sent = performance.now();
    const { ttlMs, terms } = this.renewal;
    return startJob(client, this.keys, references, this.#holder, ttlMs, reads).then((start) => {
      for (const [i, token] of start.tokens.entries()) {
        const reference = references[i]!;
        if (token) this.#held.set(reference, { reference, token, until: trustedUntil(terms, sent) });
      }
      return start;
    });
  }
}

/** Each non-empty reference once, in order (no Set for the one of a one-PayOut job). */
function distinct(references: readonly string[]): string[] {
  const present = references.filter((r) => r !== '');
  return present.length > 1 ? [...new Set(present)] : present;
}
