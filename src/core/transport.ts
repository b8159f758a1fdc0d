/**
 * The one HTTP path of a client: request validation → ky → body read under the timeout →
 * envelope reader → typed result, with retries for safe calls and reconciliation by reference
 * for creates (reconcile.ts). One ky instance per client; per-request options are merged into a
 * fresh object per call and never written back.
 */
import ky, { type KyInstance } from 'ky';
import type * as z from 'zod/mini';
import type { ResponseSchema } from '../schemas/kit.js';
import { safeParse } from '../schemas/kit.js';
import type { Recoverable } from '../schemas/recovery.js';
import { VERSION } from '../version.js';
import { type AnswerContext, isJsonText, readAnswer } from './envelope.js';
import { RequestValidationError, ResponseValidationError, TimeoutError } from './errors.js';
import { lookupSpec } from './lookup.js';
import { advice, connectionError, type FailureContext, isReset } from './network.js';
import { reconcileCreate } from './reconcile.js';
import { collectSecrets } from './redact.js';
import {
  failureOf,
  isRetriableError,
  markFailure,
  type Reconcile,
  type RetryKind,
  retryDelayMs,
  sleep,
} from './retry.js';
import { attachResponse, serialize, toBase64 } from './wire.js';

/** Receives one debug line per HTTP attempt; credentials and PII never reach it. */
export interface Logger {
  /** One line per HTTP attempt: method, path, status, durationMs, attempt. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** A create recovered by reference. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** A create without a reliable answer, about to be looked up. */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Not used by the SDK today; part of the shape so any console-like logger fits. */
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Per-call options; they apply to that call only and never change the client. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Per attempt, covering the response headers and the whole body. */
  timeoutMs?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
}

/** How the call was answered; reachable from every result as the non-enumerable `lastResponse`. */
export interface ResponseMeta {
  status: number;
  headers: Headers;
  /** The envelope's `message` ('' when absent). */
  message: string;
  /** HTTP requests made for this call (1 = no retry); a reconciled create counts its lookups too. */
  attempts: number;
}

/** A result with the answer's metadata attached (non-enumerable: not in JSON or spreads). */
export type WithResponse<T> = T & { readonly lastResponse: ResponseMeta };

export interface TransportConfig {
  baseUrl: string;
  username: string;
  password: string;
  token: string;
  timeoutMs: number;
  maxRetries: number;
  validateRequests: boolean;
  strictResponses: boolean;
  fetch?: typeof fetch | undefined;
  logger?: Logger | undefined;
  appInfo?: { name: string; version?: string } | undefined;
}

export interface CallSpec<T extends z.ZodMiniType> {
  method: 'GET' | 'POST';
  /** Relative to baseUrl, without a leading slash: 'api/v2/payin'. */
  path: string;
  body?: unknown;
  /** Client-side schema for the body, checked when validateRequests is on. */
  request?: { schema: z.ZodMiniType; what: string };
  response: ResponseSchema<T>;
  unwrap?: (data: unknown, answer: AnswerContext) => unknown;
  retry: RetryKind;
}

interface Attempt {
  status: number;
  headers: Headers;
  text: string;
}

/** State of one public call across its HTTP attempts. */
interface Call {
  /** HTTP requests made so far (create POSTs and lookups alike). */
  count: number;
  /** Credential and PII values of the request, scrubbed from anything an error keeps. */
  secrets: readonly string[];
  options: RequestOptions;
}

/**
 * Body and signal of one attempt, handed to ky's `fetch` beside the Request (ky passes options it
 * does not know through to fetch). ky's Request is then bodyless and signal-less: ky neither tees
 * a body stream for a retry we never let it make nor combines signals; the body goes out as the
 * string it already is, with its length, in one write.
 */
interface Wire {
  payinoutSignal: AbortSignal;
  payinoutBody: string | undefined;
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
    redirect: request.redirect,
  };
  if (wire.payinoutBody !== undefined) init.body = wire.payinoutBody;
  // Looked up per call: msw and test doubles patch globalThis.fetch after the client exists.
  return (custom ?? globalThis.fetch)(request.url, init);
}

export class Transport {
  readonly #ky: KyInstance;
  readonly #config: Readonly<TransportConfig>;
  readonly #credentials: readonly string[];
  /** Response fields already reported missing or null, per response schema: logged once per client. */
  readonly #warned = new WeakMap<object, Set<string>>();

  constructor(config: TransportConfig) {
    this.#config = Object.freeze({ ...config });
    const basic = `Basic ${toBase64(`${config.username}:${config.password}`)}`;
    this.#credentials = [config.password, config.token, basic, basic.slice(6)];
    const app = config.appInfo
      ? ` ${config.appInfo.name}${config.appInfo.version ? `/${config.appInfo.version}` : ''}`
      : '';
    const runtime = typeof process !== 'undefined' && process.version ? ` node/${process.version}` : '';
    // Added in sendWire rather than merged into a new Headers by ky on every call.
    const fixed = Object.freeze({
      authorization: basic,
      'token-top': config.token,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': `payinout/${VERSION}${runtime}${app}`,
    });
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      // Retries, timeouts and error mapping are ours: ky's retry cannot reconcile creates, its
      // timeout stops at the headers, and its HTTPError carries the request's credentials.
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
      fetch: (input, init) => sendWire(input as Request, init as Wire, fixed, config.fetch),
    });
  }

  get strictResponses(): boolean {
    return this.#config.strictResponses;
  }

  request<T extends z.ZodMiniType>(
    spec: CallSpec<T> & { retry: Reconcile },
    options?: RequestOptions,
  ): Promise<WithResponse<Recoverable<z.infer<T>>>>;
  request<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    options?: RequestOptions,
  ): Promise<WithResponse<z.infer<T>>>;
  async request<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    options: RequestOptions = {},
  ): Promise<WithResponse<z.infer<T>>> {
    const validated = this.#validate(spec);
    // Serialized once, before anything is sent: a value JSON cannot carry (a BigInt in an extra
    // key) is the caller's mistake, never a network failure with an unknown outcome.
    const body = serialize(validated, spec);
    const call: Call = { count: 0, secrets: [...this.#credentials, ...collectSecrets(validated)], options };
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const retry = spec.retry;
    if (typeof retry === 'object' && typeof retry.reference === 'string' && retry.reference !== '') {
      const reference = retry.reference;
      return reconcileCreate({
        reference,
        body: validated,
        method: spec.method,
        path: `/${spec.path}`,
        maxRetries,
        signal: options.signal,
        attempts: () => call.count,
        send: () => this.#exchange(spec, body, call),
        lookup: () => this.#retrying(lookupSpec(reference), undefined, call, maxRetries),
        logger: this.#config.logger,
      }) as Promise<WithResponse<z.infer<T>>>;
    }
    return this.#retrying(spec, body, call, retry === 'safe' ? maxRetries : 0);
  }

  #validate<T extends z.ZodMiniType>(spec: CallSpec<T>): unknown {
    if (!spec.request || !this.#config.validateRequests) return spec.body;
    const parsed = safeParse(spec.request.schema, spec.body);
    if (parsed.success) return parsed.data;
    throw new RequestValidationError(
      spec.request.what,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }

  /**
   * Attempts a call that may be repeated as it is. A reset before any response byte on the first
   * attempt (a stale keep-alive socket) is retried at once, even with maxRetries 0.
   */
  async #retrying<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    body: string | undefined,
    call: Call,
    maxRetries: number,
  ): Promise<WithResponse<z.infer<T>>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#exchange(spec, body, call);
      } catch (error) {
        const stale = attempt === 1 && failureOf(error).staleSocket === true;
        if (attempt > (stale ? Math.max(maxRetries, 1) : maxRetries) || !isRetriableError(error)) throw error;
        if (!stale) await sleep(retryDelayMs(attempt - 1, error), call.options.signal);
      }
    }
  }

  /** One HTTP attempt, read to a typed result or a typed error. */
  async #exchange<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    body: string | undefined,
    call: Call,
  ): Promise<WithResponse<z.infer<T>>> {
    const attempts = ++call.count;
    const path = `/${spec.path}`;
    const answer = await this.#attempt(spec, body, call, { method: spec.method, path, attempts });
    let read: ReturnType<typeof readAnswer<T>>;
    try {
      read = readAnswer(
        {
          ...answer,
          method: spec.method,
          path,
          attempts,
          strict: this.#config.strictResponses,
          secrets: call.secrets,
        },
        { schema: spec.response, unwrap: spec.unwrap },
      );
    } catch (error) {
      if (error instanceof ResponseValidationError && answer.status < 300 && !isJsonText(answer.text)) {
        markFailure(error, { status: answer.status, unreadable: true });
      }
      throw error;
    }
    for (const field of read.warnings) this.#warnOnce(spec, path, field);
    const meta: ResponseMeta = {
      status: answer.status,
      headers: answer.headers,
      message: read.message,
      attempts,
    };
    return attachResponse(read.data, meta);
  }

  /** One HTTP exchange, the body included, under one timeout. */
  async #attempt<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    body: string | undefined,
    call: Call,
    context: FailureContext,
  ): Promise<Attempt> {
    const { options } = call;
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    const started = performance.now();
    // A create's connection errors name its reference: the caller must look it up before resending.
    const reference = typeof spec.retry === 'object' ? spec.retry.reference : undefined;
    const where = reference === undefined ? context : { ...context, reference };
    let status: number | undefined;
    try {
      const wire: Wire = { payinoutSignal: signal, payinoutBody: body };
      const response = await this.#ky(spec.path, {
        method: spec.method,
        ...wire,
        ...(options.headers ? { headers: options.headers } : {}),
      });
      status = response.status;
      const text = await response.text();
      this.#log(spec.method, context.path, response.status, started, context.attempts);
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      this.#log(spec.method, context.path, undefined, started, context.attempts);
      if (options.signal?.aborted) throw options.signal.reason;
      const seen = status === undefined ? {} : { status };
      if (timeout.signal.aborted) {
        const stage = status === undefined ? 'did not answer' : `sent HTTP ${status} but not the whole body`;
        const next =
          reference === undefined
            ? 'Raise timeoutMs, or check the network to the service.'
            : advice('unknown', reference);
        const message = `${spec.method} ${context.path} ${stage} within ${timeoutMs} ms (attempt ${context.attempts}). ${next}`;
        throw markFailure(new TimeoutError({ ...where, message }), seen);
      }
      const failure = connectionError(error, where, call.secrets);
      throw markFailure(failure, { ...seen, staleSocket: status === undefined && isReset(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  #warnOnce<T extends z.ZodMiniType>(spec: CallSpec<T>, path: string, field: string): void {
    const warned = this.#warned.get(spec.response) ?? new Set<string>();
    this.#warned.set(spec.response, warned);
    if (warned.has(field)) return;
    warned.add(field);
    const method = spec.method;
    this.#config.logger?.warn(
      `payinout ${method} ${path}: the answer has no ${field} (missing or null); the result leaves it out. strictResponses: true makes this an error.`,
      { method, path, field },
    );
  }

  #log(method: string, path: string, status: number | undefined, started: number, attempt: number): void {
    const logger = this.#config.logger;
    if (!logger) return;
    const durationMs = Math.round(performance.now() - started);
    const outcome = status === undefined ? 'no answer' : String(status);
    logger.debug(`payinout ${method} ${path} → ${outcome} in ${durationMs} ms (attempt ${attempt})`, {
      method,
      path,
      status,
      durationMs,
      attempt,
    });
  }
}
