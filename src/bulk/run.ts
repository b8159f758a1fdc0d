/**
 * The contract of the runner for "many" (runner.ts): what every item of one run shares, and the
 * per-item step a caller plugs in. Types only, so the step implementations (item.ts for PayOuts,
 * lookup-step.ts for lookups), the halt (halt.ts) and the queue (src/bullmq/) depend on this file
 * and not on each other.
 */
import type { PayinoutError } from '../core/errors.js';
import type { Lane, SharedPause } from '../core/types.js';

/** Why a run stopped itself, and what the person running it should do. */
export interface HaltReason {
  why: string;
  todo: string;
}

/**
 * The run's stop, set once by the first failure every later item would meet too (refused
 * credentials, a refused configuration, a Retry-After beyond 60 s). halt.ts has the in-memory
 * one; payinout/bullmq supplies one kept in Redis, so every worker of a batch sees it.
 */
export interface RunHalt {
  /** The failure that stopped the run, if any. */
  readonly error: PayinoutError | undefined;
  /** Why the run stopped and what to do, once it has. */
  readonly reason: Readonly<HaltReason> | undefined;
  /** Stops the run when `error` is run-wide; returns whether it is. */
  consider(error: unknown): boolean;
  /** The error of a PayOut the stopped run did not send (undefined while it runs). */
  notSent(reference: string): PayinoutError | undefined;
  /** One line for a person: why the run stopped and what to do (undefined while it runs). */
  summary(): string | undefined;
}

/**
 * What every item of one run shares. Steps make their calls with `{ [LANE]: run.lane }` in the
 * call's options: the transport then waits on the shared pause before each attempt, a 429 or a
 * Retry-After pauses every lane at once (spending the lane's pauses, not the call's retries), and
 * no repeat starts once the run is aborted or halted.
 */
export interface Run {
  /** The shared pause: in memory (gate.ts PauseGate) or the queue's, in Redis. */
  readonly pause: SharedPause;
  readonly halt: RunHalt;
  /** The caller's signal: no item starts after it aborts. */
  readonly signal: AbortSignal | undefined;
  /** The lane every call of every item runs in (built by the runner from the three above). */
  readonly lane: Lane;
}

/**
 * Runs one task per key at a time: two PayOuts with one reference never race to create it
 * (gate.ts KeyedLock in memory; payinout/bullmq's fenced lease in Redis).
 */
export interface ItemLock {
  run<T>(key: string, task: () => Promise<T>): Promise<T>;
}

/**
 * Settles one item of a run. It must never reject, whatever the item is (a throwing getter, a
 * revoked Proxy): every item gets a result, and the run's order and counts depend on it. It
 * decides for itself what a stopped run means for an item not yet sent (`run.signal`,
 * `run.halt`), and calls `run.halt.consider(error)` with the failures it meets.
 */
export type Step<R> = (item: unknown, run: Run, index: number) => Promise<R>;

/**
 * Wraps one item's step (a span per item), calling `settle` once. The runner keeps the step's
 * own result: what a wrapper throws or resolves is ignored, and a wrapper that never calls
 * `settle` gets it run after it returns.
 */
export type AroundItem<R> = (item: unknown, index: number, settle: () => Promise<R>) => Promise<R>;
