/**
 * The HTTP layer of a client: one ky instance, used through its documented options —
 * `prefixUrl`, `retry` (limit, methods, `shouldRetry` deciding each retry and its wait by
 * retry.ts, as the platform sender's loop does) for calls that are safe to resend, `context`
 * and hooks — returning what came back, or a typed failure. It never decides whether a create
 * may be resent (reconcile.ts).
 */
import ky, { HTTPError, type KyInstance, type Options } from 'ky';
import { whenAborted } from './abort.js';
import { ConnectionError, TimeoutError } from './errors.js';
import { connectionError, isReset } from './network.js';
import { resendDelayMs, sleep } from './retry.js';
import { fetchSender, platform as installed, type Sender, WireFailure } from './sender.js';
import type { CallTrace } from './trace.js';
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
  /** trace: the span each attempt is reported to (an event); undefined when not traced. */
  trace?: CallTrace | undefined;
}

/** The answer of the last attempt, its body read in full. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The 1-based number of the HTTP request that got it, within the public call. */
  attempt: number;
  /** The fetch sender's Response, for ky (http.ts #answerForKy). */
  response?: Response | undefined;
}

/** A failed exchange: the typed error, and what was seen before it failed. */
export interface Broken {
  error: unknown;
  /** HTTP status, when the headers had arrived before the failure. */
  status: number | undefined;
  /** Reset before any response byte: typically a stale keep-alive socket. */
  staleSocket: boolean;
}

/** What the hooks of one call share with it, through ky's `context` option. */
interface Attempts {
  x: Exchange;
  last?: Answer;
  broken?: Broken;
  /** The wait before ky's next attempt (resendDelayMs), decided in shouldRetry. */
  delay?: number | undefined;
}

export class Http {
  /** Set when the client sends with `fetch`: ky joins the prefix URL and runs the retries. */
  readonly #ky: KyInstance | undefined;
  readonly #sender: Sender;
  readonly #config: Readonly<HttpConfig>;
  readonly #prefix: string;
  readonly #fixed: Readonly<Record<string, string>>;
  /** The request's credentials in every form a server or proxy could echo. */
  readonly credentials: readonly string[];

  constructor(config: HttpConfig) {
    this.#config = Object.freeze({ ...config });
    const basic = `Basic ${toBase64(`${config.username}:${config.password}`)}`;
    this.credentials = [config.password, config.token, basic, basic.slice(6)];
    this.#fixed = Object.freeze({
      authorization: basic,
      'token-top': config.token,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': config.userAgent,
    });
    this.#prefix = config.baseUrl.endsWith('/') ? config.baseUrl : `${config.baseUrl}/`;
    const platform = config.fetch ? undefined : installed.sender;
    this.#sender = platform ?? fetchSender(config.fetch ?? globalThis.fetch);
    // The Node sender exists to shed per-call WHATWG objects, which ky is made of (it builds a
    // Request per call and a Response per answer): it runs the same retry policy itself (#loop).
    this.#ky = platform
      ? undefined
      : ky.create({
          prefixUrl: config.baseUrl,
          // Retries are asked per call (safe calls only); the deadline is the sender's (above).
          retry: 0,
          timeout: false,
          redirect: 'manual',
          hooks: { beforeRequest: [(request, options) => this.#answerForKy(request, options.context)] },
        });
  }

  /**
   * One call: a single attempt, or up to `1 + retries` for a call that is safe to resend. Rejects
   * only with the caller's abort reason.
   */
  send(x: Exchange, retries: number): Promise<Answer | Broken> {
    // ky paces the retries of safe calls on fetch. A call with none (a create: its resends are
    // reconciliation's, reconcile.ts) is one attempt, which ky would only wrap in a Request.
    if (this.#ky && retries > 0) return this.#viaKy(this.#ky, x, retries);
    return this.#loop(x, retries);
  }

  async #viaKy(client: KyInstance, x: Exchange, retries: number): Promise<Answer | Broken> {
    const state: Attempts = { x };
    const options: Options = {
      method: x.method,
      context: { attempts: state },
      retry: retryOptions(state, retries),
    };
    // ky's backoff listens to the signal it is given: it gets this call's own follower, so one
    // signal shared by many calls does not collect a listener per call (abort.ts).
    const caller = x.options.signal;
    const follower = caller && new AbortController();
    const stop = caller && whenAborted(caller, () => follower?.abort(caller.reason));
    if (follower) options.signal = follower.signal;
    try {
      await client(x.path, options);
    } catch (error) {
      if (caller?.aborted) throw caller.reason;
      if (!(error instanceof HTTPError)) return state.broken ?? brokenBy(error, x);
    } finally {
      stop?.();
    }
    return state.last as Answer;
  }

  /** The retry policy of ky's options below (retry.ts resendDelayMs), for the platform sender. */
  async #loop(x: Exchange, retries: number): Promise<Answer | Broken> {
    const url = this.#prefix + x.path;
    for (let retry = 0; ; retry++) {
      const outcome = await this.#attempt(x, url);
      const delay = retry < retries ? resendDelayMs(outcome, retry) : undefined;
      if (delay === undefined) return outcome;
      await sleep(delay, x.options.signal);
    }
  }

  /**
   * ky's beforeRequest hook, which answers the request itself (a documented use of the hook).
   * Written here rather than left to ky's fetch and timeout because the contract needs what ky
   * does not give: a deadline that covers reading the whole body (ky's timeout ends at the
   * headers, so a stalled body would hang), the body sent as the string it is with its length
   * (ky would stream a tee'd copy of it), and a typed, credential-free error for each failure
   * (ky's errors hold the request and its headers). ky still joins the prefix URL and waits
   * between the retries of safe calls, as resendDelayMs decides (retryOptions).
   */
  async #answerForKy(request: Request, context: Record<string, unknown>): Promise<Response> {
    const state = context.attempts as Attempts;
    const outcome = await this.#attempt(state.x, request.url);
    if (isBroken(outcome)) {
      state.broken = outcome;
      throw outcome.error;
    }
    state.last = outcome;
    // The fetch sender's own Response (ky runs only over it), its body read already: ky needs
    // only the status and headers to decide on a retry.
    return outcome.response as Response;
  }

  /** One HTTP request, read to an answer or a typed failure. Rejects only with the caller's abort. */
  async #attempt(x: Exchange, url: string): Promise<Answer | Broken> {
    const attempt = ++x.counter.count;
    const timeoutMs = x.options.timeoutMs ?? this.#config.timeoutMs;
    const started = performance.now();
    try {
      const { signal, headers: own } = x.options;
      const sent = own ? withCallHeaders(this.#fixed, own) : this.#fixed;
      const request = { url, method: x.method, headers: sent, body: x.body, signal, timeoutMs };
      const response = await this.#sender(request);
      this.#log(x, attempt, response.status, started, undefined);
      const { status, headers, text } = response;
      return { status, headers, text, attempt, response: response.response };
    } catch (error) {
      this.#log(
        x,
        attempt,
        error instanceof WireFailure ? error.status : undefined,
        started,
        failureOf(error),
      );
      if (x.options.signal?.aborted) throw x.options.signal.reason;
      if (!(error instanceof WireFailure)) return brokenBy(error, x, attempt);
      const { status } = error;
      if (error.deadline)
        return { error: timedOut(x, attempt, status, timeoutMs), status, staleSocket: false };
      return brokenBy(error.cause, x, attempt, status);
    }
  }

  #log(x: Exchange, attempt: number, status: number | undefined, started: number, failure: unknown): void {
    // trace: each attempt is an event of the call's span (or of its lookup's).
    x.trace?.attempt(attempt, status, failure, performance.now() - started);
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

/** What failed an attempt, for its trace event: a passed deadline, else the network error. */
function failureOf(error: unknown): unknown {
  if (!(error instanceof WireFailure)) return error;
  return error.deadline ? { name: 'TimeoutError' } : (error.cause ?? error);
}

export function isBroken(value: Answer | Broken): value is Broken {
  return 'error' in value;
}

/**
 * ky's retry options of one call, paced by resendDelayMs as #loop is: ky alone would also read
 * RateLimit-Reset-style headers (waiting up to 60 s for an hour's reset) and give up on a 413.
 */
function retryOptions(state: Attempts, retries: number): NonNullable<Options['retry']> {
  if (retries === 0) return 0;
  return {
    limit: retries,
    methods: ['get', 'post'],
    // The delay is decided in shouldRetry (retryCount is 1-based), jitter included.
    delay: () => state.delay ?? 0,
    jitter: (delay) => delay,
    shouldRetry: ({ error, retryCount }) => {
      const attempt = error instanceof HTTPError ? state.last : state.broken;
      const mine = attempt !== undefined && (error instanceof HTTPError || state.broken?.error === error);
      state.delay = mine ? resendDelayMs(attempt, retryCount - 1) : undefined;
      return state.delay !== undefined;
    },
  };
}

/** The client's fixed headers with the call's own over them. */
function withCallHeaders(
  fixed: Readonly<Record<string, string>>,
  own: NonNullable<RequestOptions['headers']>,
): Record<string, string> {
  // No prototype: a header named __proto__ stays a header.
  const headers: Record<string, string> = Object.assign(Object.create(null), fixed);
  for (const [name, value] of new Headers(own)) headers[name] = value;
  return headers;
}

/** A failure before any answer (`status` undefined: a reset then is a stale socket) or mid-body. */
function brokenBy(error: unknown, x: Exchange, attempt = x.counter.count, status?: number): Broken {
  if (error instanceof ConnectionError) return { error, status, staleSocket: false };
  const where = { method: x.method, path: `/${x.path}`, attempts: attempt, reference: x.reference, status };
  return {
    error: connectionError(error, where, x.secrets, x.unknownAdvice),
    status,
    staleSocket: status === undefined && isReset(error),
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
