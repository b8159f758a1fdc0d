/**
 * The HTTP layer of a client: one attempt of one request through the client's sender
 * (sender.ts), returning what came back or a typed failure. It never decides whether a request
 * is repeated, nor waits (retry.ts, transport.ts, reconcile.ts do).
 */
import type { Scope } from './dispatch.js';
import { ConnectionError, TimeoutError } from './errors.js';
import { connectionError, isReset } from './network.js';
import { fetchSender, type Sender, WireFailure, Withheld } from './sender.js';
import type { AnswerInfo, Failed, RequestOptions } from './types.js';
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
  /** The platform's sender (node:http on Node), used when no `fetch` was given. */
  sender?: Sender | undefined;
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
  /** Where each attempt is told (observer seam); undefined when nothing observes the client. */
  scope?: Scope | undefined;
  /** A batch lane's last check before a create's bytes leave (types.ts Lane). */
  beforeWrite?: (() => void) | undefined;
}

/**
 * What came back for one attempt, its body read in full, with what the envelope reader needs to
 * name it in an error: the request's method and path and the call's attempts so far
 * (`attempts`, 1-based, lookups included), and the secrets to scrub from anything kept.
 */
export interface Answer extends AnswerInfo {
  headers: Headers;
  text: string;
  /** Credential and PII values of the request, collected only when an error reads them. */
  readonly secrets: readonly string[];
}

export class Http {
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
    this.#sender = config.sender ?? fetchSender(config.fetch ?? globalThis.fetch);
  }

  /**
   * One HTTP request, read to an answer or a typed failure (the seam: exactly one attempt).
   * Rejects only with the caller's abort, or with what `beforeWrite` threw (nothing was sent).
   */
  async send(x: Exchange): Promise<Answer | Failed> {
    const url = this.#prefix + x.path;
    const attempt = ++x.counter.count;
    const timeoutMs = x.options.timeoutMs ?? this.#config.timeoutMs;
    const started = performance.now();
    try {
      const { signal, headers: own } = x.options;
      const sent = own ? withCallHeaders(this.#fixed, own) : this.#fixed;
      const { beforeWrite } = x;
      const request = { url, method: x.method, headers: sent, body: x.body, signal, timeoutMs, beforeWrite };
      const response = await this.#sender(request);
      observe(x, attempt, response.status, started, undefined);
      return answerOf(x, response, attempt);
    } catch (error) {
      // Refused by the lane before anything was written: not an attempt to report.
      if (error instanceof Withheld) throw error.reason;
      observe(x, attempt, error instanceof WireFailure ? error.status : undefined, started, error);
      if (x.options.signal?.aborted) throw x.options.signal.reason;
      if (!(error instanceof WireFailure)) return brokenBy(error, x, this.#prefix, attempt);
      const { status } = error;
      if (error.deadline)
        return { ok: false, error: timedOut(x, attempt, status, timeoutMs), status, staleSocket: false };
      return brokenBy(error.cause, x, this.#prefix, attempt, status);
    }
  }
}

function answerOf(
  x: Exchange,
  response: { status: number; headers: Headers; text: string },
  attempts: number,
): Answer {
  return new ReadAnswer(x, response, attempts);
}

/**
 * An answer. A class, not an object literal with a `secrets` getter, which V8 builds slowly
 * (~1 µs per call, docs/performance.md "0.4: per-call cost"); what copies an answer names
 * `secrets` itself (envelope.ts), since a spread leaves a prototype getter out.
 */
class ReadAnswer implements Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly method: string;
  readonly path: string;
  readonly #x: Exchange;

  constructor(
    x: Exchange,
    response: { status: number; headers: Headers; text: string },
    readonly attempts: number,
  ) {
    this.status = response.status;
    this.headers = response.headers;
    this.text = response.text;
    this.method = x.method;
    this.path = `/${x.path}`;
    this.#x = x;
  }

  /** Read by an error only: a call that succeeds never collects them (call.ts). */
  get secrets(): readonly string[] {
    return this.#x.secrets;
  }
}

/** Tells the call's observers (logger, tracer) that an attempt ended; nothing when none observe. */
function observe(
  x: Exchange,
  attempt: number,
  status: number | undefined,
  started: number,
  error: unknown,
): void {
  if (!x.scope) return;
  const durationMs = performance.now() - started;
  const failure = error === undefined ? undefined : failureOf(error);
  x.scope.attempt({ attempt, method: x.method, path: `/${x.path}`, status, failure, durationMs });
}

/** What failed an attempt, for its event: a passed deadline, else the network error. */
function failureOf(error: unknown): unknown {
  if (!(error instanceof WireFailure)) return error;
  return error.deadline ? { name: 'TimeoutError' } : (error.cause ?? error);
}

export function isFailed(value: Answer | Failed): value is Failed {
  return 'ok' in value;
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
function brokenBy(error: unknown, x: Exchange, baseUrl: string, attempt: number, status?: number): Failed {
  if (error instanceof ConnectionError) return { ok: false, error, status, staleSocket: false };
  const where = {
    method: x.method,
    path: `/${x.path}`,
    attempts: attempt,
    reference: x.reference,
    status,
    baseUrl,
  };
  return {
    ok: false,
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
