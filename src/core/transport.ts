/**
 * The one HTTP path of a client: request validation → ky → body read under the timeout →
 * envelope reader → typed result, with retries for safe calls. One ky instance per client;
 * per-request options are merged into a fresh object per call and never written back.
 */
import ky, { type KyInstance } from 'ky';
import type * as z from 'zod';
import type { ResponseSchema } from '../schemas/kit.js';
import { VERSION } from '../version.js';
import { type AnswerContext, readAnswer } from './envelope.js';
import { ConnectionError, RequestValidationError, TimeoutError } from './errors.js';
import { collectSecrets } from './redact.js';
import { isRetriableError, type RetryKind, retryDelayMs, sleep } from './retry.js';

/** Receives one debug line per HTTP attempt; credentials and PII never reach it. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
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
  /** HTTP attempts made for this call (1 = no retry). */
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

export interface CallSpec<T extends z.ZodType> {
  method: 'GET' | 'POST';
  /** Relative to baseUrl, without a leading slash: 'api/v2/payin'. */
  path: string;
  body?: unknown;
  /** Client-side schema for the body, checked when validateRequests is on. */
  request?: { schema: z.ZodType; what: string };
  response: ResponseSchema<T>;
  unwrap?: (data: unknown, answer: AnswerContext) => unknown;
  retry: RetryKind;
}

interface Attempt {
  status: number;
  headers: Headers;
  text: string;
}

export class Transport {
  readonly #ky: KyInstance;
  readonly #config: Readonly<TransportConfig>;
  readonly #credentials: readonly string[];

  constructor(config: TransportConfig) {
    this.#config = Object.freeze({ ...config });
    const basic = `Basic ${toBase64(`${config.username}:${config.password}`)}`;
    this.#credentials = [config.password, config.token, basic, basic.slice(6)];
    const app = config.appInfo
      ? ` ${config.appInfo.name}${config.appInfo.version ? `/${config.appInfo.version}` : ''}`
      : '';
    const runtime = typeof process !== 'undefined' && process.version ? ` node/${process.version}` : '';
    this.#ky = ky.create({
      prefixUrl: config.baseUrl,
      headers: {
        authorization: basic,
        'token-top': config.token,
        'content-type': 'application/json',
        accept: 'application/json',
        'user-agent': `payinout/${VERSION}${runtime}${app}`,
      },
      // Retries, timeouts and error mapping are ours: ky's retry cannot reconcile creates, its
      // timeout stops at the headers, and its HTTPError carries the request's credentials.
      retry: 0,
      timeout: false,
      throwHttpErrors: false,
      redirect: 'manual',
      ...(config.fetch ? { fetch: config.fetch } : {}),
    });
  }

  get strictResponses(): boolean {
    return this.#config.strictResponses;
  }

  async request<T extends z.ZodType>(
    spec: CallSpec<T>,
    options: RequestOptions = {},
  ): Promise<WithResponse<z.infer<T>>> {
    const body = this.#validate(spec);
    const secrets = [...this.#credentials, ...collectSecrets(body)];
    const path = `/${spec.path}`;
    const maxRetries = spec.retry === 'never' ? 0 : (options.maxRetries ?? this.#config.maxRetries);
    for (let attempt = 1; ; attempt++) {
      try {
        const answer = await this.#attempt(spec, body, options, attempt, path);
        const read = readAnswer(
          {
            ...answer,
            method: spec.method,
            path,
            attempts: attempt,
            strict: this.#config.strictResponses,
            secrets,
          },
          { schema: spec.response, unwrap: spec.unwrap },
        );
        const meta: ResponseMeta = {
          status: answer.status,
          headers: answer.headers,
          message: read.message,
          attempts: attempt,
        };
        return attachResponse(read.data, meta);
      } catch (error) {
        if (attempt > maxRetries || !isRetriableError(error)) throw error;
        await sleep(retryDelayMs(attempt - 1, error), options.signal);
      }
    }
  }

  #validate<T extends z.ZodType>(spec: CallSpec<T>): unknown {
    if (!spec.request || !this.#config.validateRequests) return spec.body;
    const parsed = spec.request.schema.safeParse(spec.body);
    if (parsed.success) return parsed.data;
    throw new RequestValidationError(
      spec.request.what,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }

  /** One HTTP exchange, the body included, under one timeout. */
  async #attempt<T extends z.ZodType>(
    spec: CallSpec<T>,
    body: unknown,
    options: RequestOptions,
    attempt: number,
    path: string,
  ): Promise<Attempt> {
    const timeoutMs = options.timeoutMs ?? this.#config.timeoutMs;
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
    const started = performance.now();
    const context = { method: spec.method, path, attempts: attempt };
    try {
      const response = await this.#ky(spec.path, {
        method: spec.method,
        signal,
        ...(body === undefined ? {} : { json: body }),
        ...(options.headers ? { headers: options.headers } : {}),
      });
      const text = await response.text();
      this.#log(spec.method, path, response.status, started, attempt);
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      this.#log(spec.method, path, undefined, started, attempt);
      if (options.signal?.aborted) throw options.signal.reason;
      if (timeout.signal.aborted) {
        throw new TimeoutError({
          ...context,
          message: `${spec.method} ${path} did not complete within ${timeoutMs} ms (attempt ${attempt}). Raise timeoutMs, or check the network to the service.`,
        });
      }
      throw connectionError(error, context);
    } finally {
      clearTimeout(timer);
    }
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

/** Connection refused or DNS failure: the request provably never reached the service. */
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ERR_INVALID_URL']);

function connectionError(
  error: unknown,
  context: { method: string; path: string; attempts: number },
): ConnectionError {
  const code = networkCode(error);
  const outcome = code && NOT_SENT_CODES.has(code) ? 'not_sent' : 'unknown';
  const detail = code ?? (error instanceof Error ? error.message : String(error));
  return new ConnectionError({
    ...context,
    outcome,
    message: `${context.method} ${context.path} got no answer from the service (${detail}, attempt ${context.attempts}). Check baseUrl and the network; safe calls were retried.`,
    cause: safeCause(error),
  });
}

function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** Keeps the low-level error's name, message and code only: nothing that could hold headers. */
function safeCause(error: unknown): Error | undefined {
  if (!(error instanceof Error)) return undefined;
  const inner = error.cause instanceof Error ? error.cause : undefined;
  const cause = new Error(error.message, inner ? { cause: safeCause(inner) } : undefined);
  cause.name = error.name;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(cause, { code });
  return cause;
}

function attachResponse<T>(data: T, meta: ResponseMeta): WithResponse<T> {
  if (data !== null && typeof data === 'object') {
    Object.defineProperty(data, 'lastResponse', { value: meta, enumerable: false, configurable: true });
  }
  return data as WithResponse<T>;
}

function toBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}
