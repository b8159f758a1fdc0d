/**
 * The HTTP layer of a client: one ky instance, used through its documented options —
 * `prefixUrl`, `retry` (limit, methods, status codes, `Retry-After`, backoff, jitter,
 * `shouldRetry`) for calls that are safe to resend, `context` and hooks — returning what came
 * back, or a typed failure. It never decides whether a create may be resent (reconcile.ts).
 */
import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import { ConnectionError, TimeoutError } from './errors.js';
import { connectionError, isReset } from './network.js';
import { BASE_DELAY_MS, MAX_DELAY_MS, MAX_RETRY_AFTER_MS, retryAfterMs } from './retry.js';
import type { Logger, RequestOptions } from './types.js';
import { toBase64 } from './wire.js';

/** The client-wide settings of the HTTP layer. */
export interface HttpConfig {
  baseUrl: string;
  username: string;
  password: string;
  token: string;
  timeoutMs: number;
  userAgent: string;
  fetch?: typeof fetch | undefined;
  logger?: Logger | undefined;
}

/** One request as the transport asks for it. */
export interface Exchange {
  method: 'GET' | 'POST';
  /** Relative to baseUrl, without a leading slash. */
  path: string;
  body: string | undefined;
  options: RequestOptions;
  /** Counts the HTTP requests of the whole public call (sends and lookups alike). */
  counter: { count: number };
  /** Credential and PII values, scrubbed from any text a failure keeps. */
  secrets: readonly string[];
  /** What the caller must do when the outcome is unknown (e.g. look a reference up). */
  unknownAdvice?: string | undefined;
  reference?: string | undefined;
}

/** The answer of the last attempt, its body read in full. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The 1-based number of the HTTP request that got it, within the public call. */
  attempt: number;
}

/** A failed exchange: the typed error, and what was seen before it failed. */
export interface Broken {
  error: unknown;
  /** HTTP status, when the headers had arrived before the failure. */
  status: number | undefined;
  /** Reset before any response byte: typically a stale keep-alive socket. */
  staleSocket: boolean;
}

/** Statuses worth another attempt of a safe call (docs/reliability.md, "Retry table"). */
const RETRY_STATUSES = [408, 429, ...Array.from({ length: 100 }, (_, i) => 500 + i)];

/** What the hooks of one call share with it, through ky's `context` option. */
interface Attempts {
  x: Exchange;
  last?: Answer;
  broken?: Broken;
  /** Set when the server asked for a wait ky does not read (`retry-after-ms`) or none is due. */
  exactDelay?: number | undefined;
}

export class Http {
  readonly #ky: KyInstance;
  readonly #config: Readonly<HttpConfig>;
  /** The request's credentials in every form a server or proxy could echo. */
  readonly credentials: readonly string[];

  constructor(config: HttpConfig) {
    this.#config = Object.freeze({ ...config });
    const basic = `Basic ${toBase64(`${config.username}:${config.password}`)}`;
    this.credentials = [config.password, config.token, basic, basic.slice(6)];
    const fixed = Object.freeze({
      authorization: basic,
      'token-top': config.token,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': config.userAgent,
    });
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      // Retries are asked per call (safe calls only); the deadline is the attempt's own (below).
      retry: 0,
      timeout: false,
      redirect: 'manual',
      hooks: { beforeRequest: [(request, options) => this.#attempt(request, options.context, fixed)] },
    });
  }

  /**
   * One call: a single attempt, or up to `1 + retries` for a call that is safe to resend. Rejects
   * only with the caller's abort reason.
   */
  async send(x: Exchange, retries: number): Promise<Answer | Broken> {
    const state: Attempts = { x };
    const options: Options = {
      method: x.method,
      context: { attempts: state },
      retry: retryOptions(state, retries),
    };
    if (x.options.headers) options.headers = x.options.headers;
    if (x.options.signal) options.signal = x.options.signal;
    try {
      await this.#ky(x.path, options);
    } catch (error) {
      if (x.options.signal?.aborted) throw x.options.signal.reason;
      if (!(error instanceof HTTPError)) return state.broken ?? brokenBy(error, x);
    }
    return state.last as Answer;
  }

  /**
   * ky's beforeRequest hook, which answers the request itself (a documented use of the hook).
   * Written here rather than left to ky's fetch and timeout because the contract needs what ky
   * does not give: a deadline that covers reading the whole body (ky's timeout ends at the
   * headers, so a stalled body would hang), the body sent as the string it is with its length
   * (ky would stream a tee'd copy of it), and a typed, credential-free error for each failure
   * (ky's errors hold the request and its headers). ky still joins the prefix URL, merges the
   * per-call headers, and decides and paces the retries of safe calls.
   */
  async #attempt(
    request: Request,
    context: Record<string, unknown>,
    fixed: Readonly<Record<string, string>>,
  ): Promise<Response> {
    const state = context.attempts as Attempts;
    const { x } = state;
    const attempt = ++x.counter.count;
    const timeoutMs = x.options.timeoutMs ?? this.#config.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = x.options.signal ? AbortSignal.any([x.options.signal, timeout.signal]) : timeout.signal;
    const started = performance.now();
    let status: number | undefined;
    try {
      const response = await (this.#config.fetch ?? globalThis.fetch)(request.url, {
        method: x.method,
        headers: x.options.headers ? headersOf(request, fixed) : fixed,
        signal,
        redirect: 'manual',
        ...(x.body === undefined ? {} : { body: x.body }),
      });
      status = response.status;
      const text = await response.text();
      this.#log(x, attempt, status, started);
      state.last = { status, headers: response.headers, text, attempt };
      // Only an answer ky retries (not ok) can carry a wait for the next attempt.
      state.exactDelay = response.ok ? undefined : exactDelay(response.headers);
      return response;
    } catch (error) {
      this.#log(x, attempt, undefined, started);
      if (x.options.signal?.aborted) throw x.options.signal.reason;
      const broken = timeout.signal.aborted
        ? { error: timedOut(x, attempt, status, timeoutMs), status, staleSocket: false }
        : { ...brokenBy(error, x, attempt), status, staleSocket: status === undefined && isReset(error) };
      state.broken = broken;
      // A reset before any byte (a stale keep-alive socket) is retried at once.
      state.exactDelay = broken.staleSocket ? 0 : undefined;
      throw broken.error;
    } finally {
      clearTimeout(timer);
    }
  }

  #log(x: Exchange, attempt: number, status: number | undefined, started: number): void {
    const logger = this.#config.logger;
    if (!logger) return;
    const durationMs = Math.round(performance.now() - started);
    const path = `/${x.path}`;
    const outcome = status === undefined ? 'no answer' : String(status);
    logger.debug(`payinout ${x.method} ${path} → ${outcome} in ${durationMs} ms (attempt ${attempt})`, {
      method: x.method,
      path,
      status,
      durationMs,
      attempt,
    });
  }
}

export function isBroken(value: Answer | Broken): value is Broken {
  return 'error' in value;
}

/** ky's retry options of one call: our backoff, jitter, statuses and the 60 s Retry-After cap. */
function retryOptions(state: Attempts, retries: number): NonNullable<Options['retry']> {
  if (retries === 0) return 0;
  return {
    limit: retries,
    methods: ['get', 'post'],
    statusCodes: RETRY_STATUSES,
    afterStatusCodes: RETRY_STATUSES,
    // ky also reads RateLimit-Reset-style headers; none of them makes a call wait beyond 60 s.
    maxRetryAfter: MAX_RETRY_AFTER_MS,
    // Backoff before retry n (1-based): 0.5 s · 2ⁿ⁻¹ capped at 8 s, minus up to 25 % jitter.
    delay: (n) => state.exactDelay ?? Math.min(BASE_DELAY_MS * 2 ** (n - 1), MAX_DELAY_MS),
    jitter: (delay) => (state.exactDelay === undefined ? delay * (1 - Math.random() * 0.25) : delay),
    shouldRetry: ({ error }) => {
      // A Retry-After above 60 s is surfaced, not waited for; ky paces the others itself.
      if (error instanceof HTTPError)
        return retryAfterMs(error.response.headers) === Infinity ? false : undefined;
      return error instanceof ConnectionError;
    },
  };
}

/** `retry-after-ms`, which ky does not read; `Retry-After` ky reads itself. */
function exactDelay(headers: Headers): number | undefined {
  if (!headers.has('retry-after-ms')) return undefined;
  const ms = retryAfterMs(headers);
  return ms === undefined || ms === Infinity ? undefined : ms;
}

/** The client's fixed headers with the call's own (the only ones ky holds) over them. */
function headersOf(request: Request, fixed: Readonly<Record<string, string>>): Record<string, string> {
  // No prototype: a header named __proto__ stays a header.
  const headers: Record<string, string> = Object.assign(Object.create(null), fixed);
  for (const [name, value] of request.headers) headers[name] = value;
  return headers;
}

function brokenBy(error: unknown, x: Exchange, attempt = x.counter.count): Broken {
  if (error instanceof ConnectionError) return { error, status: undefined, staleSocket: false };
  const where = { method: x.method, path: `/${x.path}`, attempts: attempt, reference: x.reference };
  return {
    error: connectionError(error, where, x.secrets, x.unknownAdvice),
    status: undefined,
    staleSocket: isReset(error),
  };
}

function timedOut(x: Exchange, attempt: number, status: number | undefined, timeoutMs: number): TimeoutError {
  const path = `/${x.path}`;
  const stage = status === undefined ? 'did not answer' : `sent HTTP ${status} but not the whole body`;
  const next = x.unknownAdvice ?? 'Raise timeoutMs, or check the network to the service.';
  return new TimeoutError({
    method: x.method,
    path,
    attempts: attempt,
    outcome: 'unknown',
    reference: x.reference,
    message: `${x.method} ${path} ${stage} within ${timeoutMs} ms (attempt ${attempt}). ${next}`,
  });
}
