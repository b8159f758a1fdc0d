/**
 * How long a batch item waits before its next lookup-then-create, and whether the whole batch
 * waits with it. The per-call policy (docs/reliability.md) is repeated here at the batch level
 * because the batch makes its calls with `maxRetries: 0`.
 */
import { ApiError } from '../core/errors.js';
import { retryAfterMs } from '../core/retry.js';

/**
 * Transient failures (no answer, 5xx, 408) tolerated per item: more than one call's default (2),
 * since a batch runs unattended; 0.5 + 1 + 2 + 4 + 8 s of backoff at most before the item fails.
 */
export const MAX_ITEM_RETRIES = 5;
/** Shared pauses tolerated per item: a rate limit slows the batch, it does not fail items. */
export const MAX_ITEM_PAUSES = 30;
const BASE_MS = 500;
const MAX_BACKOFF_MS = 8_000;
const RATE_LIMIT_BASE_MS = 1_000;
/** The longest shared pause; a longer Retry-After is honoured in steps of this size. */
const MAX_PAUSE_MS = 60_000;

export interface Wait {
  /** ms since epoch when the next attempt may start. */
  until: number;
  /** Whether every worker of the batch waits too (a rate limit or a Retry-After). */
  shared: boolean;
}

export interface Spent {
  failures: number;
  pauses: number;
  /** When the failed attempt started: a Retry-After counts from the answer, which came after. */
  started: number;
}

/** The next wait after `error`, or `undefined` when the item's budget is spent. */
export function nextWait(error: unknown, spent: Spent): Wait | undefined {
  const retryAfter = error instanceof ApiError ? retryAfterMs(error.headers) : undefined;
  if (error instanceof ApiError && (error.status === 429 || retryAfter !== undefined)) {
    if (spent.pauses >= MAX_ITEM_PAUSES) return undefined;
    const ms = retryAfter ?? RATE_LIMIT_BASE_MS * 2 ** Math.min(spent.pauses, 5);
    // A create already waited its Retry-After before its own lookup; counting from the start of
    // the attempt makes that wait count, and the other workers pause for what is left of it.
    return { until: spent.started + Math.min(ms, MAX_PAUSE_MS), shared: true };
  }
  if (spent.failures >= MAX_ITEM_RETRIES) return undefined;
  const backoff = Math.min(BASE_MS * 2 ** spent.failures, MAX_BACKOFF_MS);
  // Up to 25 % less, so items that failed together do not retry in lockstep.
  return { until: Date.now() + backoff * (1 - Math.random() * 0.25), shared: false };
}
