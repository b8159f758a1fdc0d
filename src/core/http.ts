/**
 * One HTTP exchange of a client: the request through ky, the whole body read, under one deadline.
 * It returns what came back or a typed failure; it never decides whether to try again.
 */
import ky, { type KyInstance } from 'ky';
import { TimeoutError } from './errors.js';
import { connectionError, isReset } from './network.js';
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
  /** 1-based number of this HTTP request within the public call. */
  attempt: number;
  /** Credential and PII values, scrubbed from any text a failure keeps. */
  secrets: readonly string[];
  /** What the caller must do when the outcome is unknown (e.g. look a reference up). */
  unknownAdvice?: string | undefined;
  reference?: string | undefined;
}

/** The answer of one exchange, its body read in full. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** A failed exchange: the typed error, and what was seen before it failed. */
export interface Broken {
  error: unknown;
  /** HTTP status, when the headers had arrived before the failure. */
  status: number | undefined;
  /** Reset before any response byte: typically a stale keep-alive socket. */
  staleSocket: boolean;
}

/**
 * Body and signal of one attempt, handed to ky's `fetch` beside the Request. ky stays the layer
 * that joins the prefix URL and carries the per-call headers; the body goes to fetch as the string
 * it already is (no stream to tee for a retry ky never makes) and the deadline covers the body read,
 * which ky's own timeout stops short of (it ends at the headers).
 */
interface Wire {
  payinoutSignal: AbortSignal;
  payinoutBody: string | undefined;
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
      // Retries, timeouts and error mapping are the transport's: ky's retry cannot reconcile
      // creates, its timeout stops at the headers, and its HTTPError carries the credentials.
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
      fetch: (input, init) => sendWire(input as Request, init as Wire, fixed, config.fetch),
    });
  }

  /** One exchange; rejects with the caller's abort reason, resolves with an answer or a failure. */
  async exchange(x: Exchange): Promise<Answer | Broken> {
    const timeoutMs = x.options.timeoutMs ?? this.#config.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = x.options.signal ? AbortSignal.any([x.options.signal, timeout.signal]) : timeout.signal;
    const started = performance.now();
    let status: number | undefined;
    try {
      const wire: Wire = { payinoutSignal: signal, payinoutBody: x.body };
      const response = await this.#ky(x.path, {
        method: x.method,
        ...wire,
        ...(x.options.headers ? { headers: x.options.headers } : {}),
      });
      status = response.status;
      const text = await response.text();
      this.#log(x, status, started);
      return { status, headers: response.headers, text };
    } catch (error) {
      this.#log(x, undefined, started);
      if (x.options.signal?.aborted) throw x.options.signal.reason;
      if (timeout.signal.aborted)
        return { error: timedOut(x, status, timeoutMs), status, staleSocket: false };
      const where = { method: x.method, path: `/${x.path}`, attempts: x.attempt, reference: x.reference };
      return {
        error: connectionError(error, where, x.secrets, x.unknownAdvice),
        status,
        staleSocket: status === undefined && isReset(error),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  #log(x: Exchange, status: number | undefined, started: number): void {
    const logger = this.#config.logger;
    if (!logger) return;
    const durationMs = Math.round(performance.now() - started);
    const path = `/${x.path}`;
    const outcome = status === undefined ? 'no answer' : String(status);
    logger.debug(`payinout ${x.method} ${path} → ${outcome} in ${durationMs} ms (attempt ${x.attempt})`, {
      method: x.method,
      path,
      status,
      durationMs,
      attempt: x.attempt,
    });
  }
}

export function isBroken(value: Answer | Broken): value is Broken {
  return 'error' in value;
}

function timedOut(x: Exchange, status: number | undefined, timeoutMs: number): TimeoutError {
  const path = `/${x.path}`;
  const stage = status === undefined ? 'did not answer' : `sent HTTP ${status} but not the whole body`;
  const next = x.unknownAdvice ?? 'Raise timeoutMs, or check the network to the service.';
  return new TimeoutError({
    method: x.method,
    path,
    attempts: x.attempt,
    outcome: 'unknown',
    reference: x.reference,
    message: `${x.method} ${path} ${stage} within ${timeoutMs} ms (attempt ${x.attempt}). ${next}`,
  });
}

/**
 * ky's fetch: the Request's URL and method, the client's fixed headers with the call's own headers
 * (the only ones ky holds) over them, and the attempt's body and signal.
 */
function sendWire(
  request: Request,
  wire: Wire,
  fixed: Readonly<Record<string, string>>,
  custom: typeof fetch | undefined,
): Promise<Response> {
  // No prototype: a header named __proto__ stays a header.
  const headers: Record<string, string> = Object.assign(Object.create(null), fixed);
  for (const [name, value] of request.headers) headers[name] = value;
  const init: RequestInit = {
    method: request.method,
    headers,
    signal: wire.payinoutSignal,
    redirect: 'manual',
  };
  if (wire.payinoutBody !== undefined) init.body = wire.payinoutBody;
  // Looked up per call: msw and test doubles patch globalThis.fetch after the client exists.
  return (custom ?? globalThis.fetch)(request.url, init);
}
