/**
 * The one retry policy and the one pacer every repeated request goes through (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md,
 * "Retry table"): safe calls resent by the transport, creates resent by reconciliation, the
 * lookups between them, and a batch's shared pause. Which calls may be repeated at all is the
 * Call's `resend` (call.ts); nothing below this (http.ts, the senders) decides or times one.
 * Backoff: 0.5 s · 2ⁿ capped at 8 s, with up to 25 % jitter downwards so a fleet of clients does
 * not retry in lockstep; `Retry-After` wins when present, up to 60 s.
 */
import { whenAborted } from './abort.js';
import type { Answer } from './call.js';
import { ApiError, ConnectionError } from './errors.js';
import type { Lane } from './types.js';

const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 8_000;
const MAX_RETRY_AFTER_MS = 60_000;

/** The statuses worth another attempt: the service asked us to come back, or failed on its side. */
export function isRetriableStatus(status: number | undefined): boolean {
  return status !== undefined && (status === 408 || status === 429 || status >= 500);
}

/** Worth another attempt: no answer at all, or a retriable status. */
export function isTransient(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return error instanceof ApiError && isRetriableStatus(error.status);
}

/**
 * Milliseconds the server asked us to wait: `retry-after-ms`, or `Retry-After` in one of RFC 9110's
 * forms (section 10.2.3): delay-seconds (digits only) or an HTTP-date. `undefined` when absent or in
 * any other form (`-5`, `+5`, `1,2`, `1.5`, text `Date.parse` happens to read), so the normal backoff
 * applies; `Infinity` when above 60 s (we then surface the error instead of sleeping that long).
 */
export function retryAfterMs(headers: Record<string, string> | Headers | undefined): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : headers[name]) ?? undefined;
  const msHeader = get('retry-after-ms');
  const header = get('retry-after');
  let ms: number | undefined;
  if (msHeader !== undefined && /^\d+(\.\d+)?$/.test(msHeader)) ms = Number(msHeader);
  else if (header !== undefined) ms = retryAfterValueMs(header);
  if (ms === undefined) return undefined;
  return ms > MAX_RETRY_AFTER_MS ? Infinity : ms;
}

function retryAfterValueMs(value: string, now = Date.now()): number | undefined {
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = httpDate(value, now);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** RFC 9110 section 5.6.7: IMF-fixdate, then the obsolete rfc850-date and asctime-date. */
const HTTP_DATES = [
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\d\d) (\w{3}) (\d{4}) (\d\d):(\d\d):(\d\d) GMT$/,
  /^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\d\d)-(\w{3})-(\d\d) (\d\d):(\d\d):(\d\d) GMT$/,
  /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\w{3}) ( \d|\d\d) (\d\d):(\d\d):(\d\d) (\d{4})$/,
];
/** Where each form keeps day, month, year, hours, minutes and seconds. */
const GROUPS = [
  [1, 2, 3, 4, 5, 6],
  [1, 2, 3, 4, 5, 6],
  [2, 1, 6, 3, 4, 5],
];

/** An HTTP-date as epoch milliseconds (always UTC), or `undefined` when `value` is not one. */
export function httpDate(value: string, now = Date.now()): number | undefined {
  for (const [form, pattern] of HTTP_DATES.entries()) {
    const match = pattern.exec(value);
    if (!match) continue;
    const [day, month, year, ...clock] = GROUPS[form]!.map((group) => match[group]!);
    const monthIndex = MONTHS.indexOf(month!);
    const fullYear = form === 1 ? twoDigitYear(Number(year), now) : Number(year);
    const fields = [Number(day), ...clock.map(Number)] as [number, number, number, number];
    const time = Date.UTC(fullYear, monthIndex, ...fields);
    // 31 Feb or 25:00:00 would roll over into another moment: not a date the server meant.
    const back = new Date(time);
    const read = [back.getUTCDate(), back.getUTCHours(), back.getUTCMinutes(), back.getUTCSeconds()];
    return monthIndex >= 0 && read.every((field, i) => field === fields[i]) ? time : undefined;
  }
  return undefined;
}

/** RFC 9110: a two-digit year more than 50 years ahead is the latest past year with those digits. */
function twoDigitYear(yy: number, now: number): number {
  const current = new Date(now).getUTCFullYear();
  const year = current - (current % 100) + yy;
  return year > current + 50 ? year - 100 : year;
}

/** Backoff before retry number `retry` (0-based), with up to 25 % off. */
function backoffMs(retry: number, random: () => number = Math.random): number {
  return Math.min(BASE_DELAY_MS * 2 ** retry, MAX_DELAY_MS) * (1 - random() * 0.25);
}

/** What the policy reads of a failed attempt. */
export interface Failure {
  /** The answer's status, when one came. */
  status?: number | undefined;
  headers?: Headers | Record<string, string> | undefined;
  /** A reset before any response byte (a stale keep-alive socket): resent at once. */
  staleSocket?: boolean;
  /** No answer came (a ConnectionError): worth another attempt after a backoff. */
  unanswered?: boolean;
}

/** The wait before the next attempt. */
export interface Wait {
  ms: number;
  /**
   * The service asked for it (a 429, or any answer with Retry-After): it is about the merchant,
   * not this request, so a shared pause (a batch's) makes every lane wait it out.
   */
  asked: boolean;
  /** A rate limit (429): in a lane it spends the lane's pauses, not the call's retries. */
  limited?: boolean;
}

/** The failure of an attempt as the policy reads it, from its typed error. */
export function failureOf(error: unknown, staleSocket = false): Failure {
  if (error instanceof ApiError) return { status: error.status, headers: error.headers };
  return { unanswered: error instanceof ConnectionError, staleSocket };
}

/**
 * Whether an attempt that failed this way is worth another, and after how long (`retry` is the
 * 0-based number of the next retry): `undefined` when the failure is final, or when the service
 * asked for more than 60 s.
 */
export function waitAfter(failure: Failure, retry: number): Wait | undefined {
  if (failure.staleSocket) return { ms: 0, asked: false };
  if (failure.status === undefined) {
    return failure.unanswered ? { ms: backoffMs(retry), asked: false } : undefined;
  }
  // A status beyond HTTP's range is no answer worth repeating.
  if (!isRetriableStatus(failure.status) || failure.status > 599) return undefined;
  const asked = retryAfterMs(failure.headers);
  if (asked === Infinity) return undefined;
  const limited = failure.status === 429;
  return { ms: asked ?? backoffMs(retry), asked: limited || asked !== undefined, limited };
}

/** Whether an error's answer asked for a wait longer than the SDK ever waits (over 60 s). */
export function askedTooLong(error: unknown): boolean {
  return error instanceof ApiError && retryAfterMs(error.headers) === Infinity;
}

/**
 * The budget and the waits of one call's repeated requests (and the wait before each request when
 * the call runs in a batch's {@link Lane}). `maxRetries` bounds the repeats; in a lane a wait the
 * service asked for (429, Retry-After) pauses every lane and spends the lane's `maxPauses` instead,
 * so a rate limit slows a batch without failing its items.
 */
export class Pacer {
  #retries = 0;
  #pauses = 0;
  /** The pause of the last answer was set when it came (heard), before it was read. */
  #announced = false;

  constructor(
    readonly maxRetries: number,
    readonly signal: AbortSignal | undefined,
    readonly lane?: Lane | undefined,
  ) {}

  /** Repeats made so far (rate-limit pauses of a lane apart). */
  get retries(): number {
    return this.#retries;
  }

  /**
   * Resolves when the next request may start: at once (`undefined`, no await needed) outside a
   * lane. Rejects only with the caller's abort reason.
   */
  ready(): Promise<void> | undefined {
    return this.lane && this.#laneReady(this.lane);
  }

  async #laneReady(lane: Lane): Promise<void> {
    await lane.pause.ready(this.signal ?? lane.signal);
    if (this.signal?.aborted) throw this.signal.reason;
  }

  /** The wait before repeating after `failure`, or `undefined` when it is final or the budget is spent. */
  plan(failure: Failure): Wait | undefined {
    if (this.lane?.stopped()) return undefined;
    const limited = failure.status === 429 && this.lane !== undefined;
    const wait = waitAfter(failure, limited ? this.#pauses : this.#retries);
    if (!wait) return undefined;
    if (this.#spendsPause(wait)) return this.#pauses < (this.lane?.maxPauses ?? 0) ? wait : undefined;
    return this.#retries < this.maxRetries ? wait : undefined;
  }

  /**
   * In a lane, pauses every lane the moment an answer asks for a wait (429, Retry-After), before
   * it is read: reading a refusal into its typed, scrubbed error can take tens of milliseconds
   * (redacting a customer's details), and every other lane and worker goes on sending until it
   * hears of the pause. Spends nothing; `take` then waits the same pause out. Resolves once the
   * event loop has turned, so that a pause shared across processes (payinout/bullmq writes it to
   * Redis) is on its way before the read holds this process; at once when nothing was paused.
   */
  heard(answer: Answer): Promise<void> | undefined {
    if (!this.lane || answer.failed || answer.status === undefined || answer.status < 400) return;
    const wait = this.plan(answer);
    if (!wait?.asked || wait.ms <= 0) return;
    this.lane.pause.pauseUntil(Date.now() + wait.ms);
    this.#announced = true;
    return new Promise((resolve) => setTimeout(resolve, 0));
  }

  /** Spends one repeat of the budget `wait` belongs to, and waits it out. */
  async take(wait: Wait): Promise<void> {
    if (this.#spendsPause(wait)) this.#pauses++;
    else this.#retries++;
    await this.hold(wait);
  }

  /**
   * Waits `wait` out without spending: with every lane when the service asked for it. The
   * batch's signal ends a lane's wait early (the caller then finds the lane stopped).
   */
  async hold(wait: Wait): Promise<void> {
    const lane = this.lane;
    if (lane && wait.asked) {
      // Announced already when the answer came (heard): the pause is not said twice.
      if (!this.#announced) lane.pause.pauseUntil(Date.now() + wait.ms);
      this.#announced = false;
      return this.ready();
    }
    if (lane && !this.signal) return sleep(wait.ms, lane.signal).catch(() => {});
    return sleep(wait.ms, this.signal);
  }

  #spendsPause(wait: Wait): boolean {
    return wait.limited === true && this.lane !== undefined;
  }
}

/** The pause before the next poll of a status (waitForFinalStatus): ×1.5 per poll, at most 30 s. */
export function nextPollInterval(interval: number): number {
  return Math.min(interval * 1.5, 30_000);
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
