/**
 * When to retry and how long to wait (docs/reliability.md has the table). Which calls may be
 * repeated at all is the CallSpec's `resend` (types.ts).
 * Backoff: 0.5 s · 2ⁿ capped at 8 s, with up to 25 % jitter downwards so a fleet of
 * clients does not retry in lockstep; `Retry-After` wins when present, up to 60 s.
 */
import { whenAborted } from './abort.js';
import { ApiError, ConnectionError } from './errors.js';

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;

export function isRetriableStatus(status: number | undefined): boolean {
  return status !== undefined && (status === 408 || status === 429 || status >= 500);
}

/**
 * Milliseconds the server asked us to wait: `retry-after-ms`, or `Retry-After` in seconds or
 * as an HTTP date. `undefined` when absent or unreadable; `Infinity` when above 60 s (we then
 * surface the error instead of sleeping that long).
 */
export function retryAfterMs(headers: Record<string, string> | Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]) ?? undefined;
  let ms: number | undefined;
  const msHeader = get('retry-after-ms');
  const header = get('retry-after');
  if (msHeader !== undefined && /^\d+(\.\d+)?$/.test(msHeader.trim())) ms = Number(msHeader);
  else if (header !== undefined) {
    const value = header.trim();
    if (/^\d+(\.\d+)?$/.test(value)) ms = Number(value) * 1000;
    else {
      const date = Date.parse(value);
      if (!Number.isNaN(date)) ms = Math.max(0, date - Date.now());
    }
  }
  if (ms === undefined) return undefined;
  return ms > MAX_RETRY_AFTER_MS ? Infinity : ms;
}

/** Backoff before retry number `retry` (0-based), before jitter. */
function backoffMs(retry: number): number {
  return Math.min(BASE_DELAY_MS * 2 ** retry, MAX_DELAY_MS);
}

/** Up to 25 % off, so a fleet of clients does not retry in lockstep. */
function jittered(delay: number, random: () => number = Math.random): number {
  return delay * (1 - random() * 0.25);
}

/** Delay before retry number `retry` (0-based), honouring Retry-After from the failed answer. */
export function retryDelayMs(retry: number, error: unknown, random: () => number = Math.random): number {
  const asked = error instanceof ApiError ? retryAfterMs(error.headers) : undefined;
  if (asked !== undefined && asked !== Infinity) return asked;
  return jittered(backoffMs(retry), random);
}

/**
 * Whether a safe call is sent again after an attempt, and after how long: `undefined` when the
 * attempt is final (docs/reliability.md, "Retry table"). A reset before any response byte (a
 * stale keep-alive socket) is resent at once.
 */
export function resendDelayMs(
  attempt: { status: number; headers: Headers } | { error: unknown; staleSocket: boolean },
  retry: number,
): number | undefined {
  if ('error' in attempt) {
    if (attempt.staleSocket) return 0;
    return attempt.error instanceof ConnectionError ? jittered(backoffMs(retry)) : undefined;
  }
  // 500–599 as the fetch path's ky list has it: a status beyond HTTP's range is final.
  if (!isRetriableStatus(attempt.status) || attempt.status > 599) return undefined;
  const asked = retryAfterMs(attempt.headers);
  if (asked === Infinity) return undefined;
  return asked ?? jittered(backoffMs(retry));
}

/** Sleeps, waking early with the signal's reason when the caller aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const stop = signal
      ? whenAborted(signal, () => {
          clearTimeout(timer);
          reject(signal.reason);
        })
      : undefined;
    const timer = setTimeout(() => {
      stop?.();
      resolve();
    }, ms);
  });
}
