/**
 * How long a batch item waits before its next lookup-then-create, and whether the whole batch
 * waits with it. The per-call policy (docs/reliability.md) is repeated here at the batch level
 * because the batch makes its calls with `maxRetries: 0`.
 */
import { ApiError } from '../core/errors.js';
import { retryAfterMs } from '../core/retry.js';

/**
 * Shared pauses tolerated per item: a rate limit slows the batch, it does not fail items. The
 * transient failures (no answer, 5xx, 408) tolerated per item are the client's `maxRetries`, or
 * the batch's own (PayOutBatchOptions.maxRetries): one knob, as for every other call.
 */
export const MAX_ITEM_PAUSES = 30;
const BASE_MS = 500;
const MAX_BACKOFF_MS = 8_000;
const RATE_LIMIT_BASE_MS = 1_000;
/** The longest shared pause; a longer Retry-After stops the batch (halt.ts). */
const MAX_PAUSE_MS = 60_000;

export interface Wait {
  /** ms since epoch when the next attempt may start. */
  until: number;
  /** Whether every worker of the batch waits too (a rate limit or a Retry-After). */
  shared: boolean;
  /** Whether it spends the pause budget (a 429) rather than the retry budget. */
  pause: boolean;
}

export interface Spent {
  failures: number;
  pauses: number;
  /** When the failed attempt started: a Retry-After counts from the answer, which came after. */
  started: number;
  /** Transient failures the item may retry after (its `maxRetries`). */
  maxRetries: number;
}

/** The next wait after `error`, or `undefined` when the item's budget is spent. */
export function nextWait(error: unknown, spent: Spent): Wait | undefined {
  const retryAfter = error instanceof ApiError ? retryAfterMs(error.headers) : undefined;
  const limited = error instanceof ApiError && error.status === 429;
  // Only a 429 spends the pause budget: a 5xx that says Retry-After: 0 each time is a failure.
  if (limited ? spent.pauses >= MAX_ITEM_PAUSES : spent.failures >= spent.maxRetries) return undefined;
  if (limited || retryAfter !== undefined) {
    const ms = retryAfter ?? RATE_LIMIT_BASE_MS * 2 ** Math.min(spent.pauses, 5);
    // A create already waited its Retry-After before its own lookup; counting from the start of
    // the attempt makes that wait count, and the other workers pause for what is left of it.
    return { until: spent.started + Math.min(ms, MAX_PAUSE_MS), shared: true, pause: limited };
  }
  const backoff = Math.min(BASE_MS * 2 ** spent.failures, MAX_BACKOFF_MS);
  // Up to 25 % less, so items that failed together do not retry in lockstep.
  return { until: Date.now() + backoff * (1 - Math.random() * 0.25), shared: false, pause: false };
}
