/**
 * The HTTP layer of a client: one attempt of one request through the client's sender
 * (sender.ts), returning what came back or a typed failure. It never decides whether a request
 * is repeated, nor waits (retry.ts, transport.ts, reconcile.ts do).
 */
import { Answer, type Call } from './call.js';
import { ConnectionError, TimeoutError } from './errors.js';
import { connectionError, isReset } from './network.js';
import { fetchSender, type Sender, WireFailure, Withheld } from './sender.js';
import type { RequestOptions } from './types.js';
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
   * One HTTP request of `call`, read to an answer or a typed failure (the seam: exactly one
   * attempt). Rejects only with the caller's abort, or with what `beforeWrite` threw (nothing was sent).
   */
  async send(call: Call): Promise<Answer> {
    const answer = new Answer(call, call.attempt());
    const { signal, headers: own } = call.options;
    const timeoutMs = call.options.timeoutMs ?? this.#config.timeoutMs;
    // Read for the attempt's event only: an unobserved call has no clock to read.
    const started = call.scope ? performance.now() : 0;
    try {
      const headers = own ? withCallHeaders(this.#fixed, own) : this.#fixed;
      const url = this.#prefix + call.path;
      const { method, sent: body, beforeWrite } = call;
      const response = await this.#sender({ url, method, headers, body, signal, timeoutMs, beforeWrite });
      observe(call, answer.attempts, response.status, started, undefined);
      return answer.answered(response);
    } catch (error) {
      // Refused by the lane before anything was written: not an attempt to report.
      if (error instanceof Withheld) throw error.reason;
      observe(call, answer.attempts, error instanceof WireFailure ? error.status : undefined, started, error);
      if (signal?.aborted) throw signal.reason;
      if (!(error instanceof WireFailure)) return brokenBy(answer, call, error, this.#prefix);
      answer.status = error.status;
      if (error.deadline) return answer.fail(timedOut(answer, call, timeoutMs));
      return brokenBy(answer, call, error.cause, this.#prefix);
    }
  }
}

/** Tells the call's observers (logger, tracer) that an attempt ended; nothing when none observe. */
function observe(
  call: Call,
  attempt: number,
  status: number | undefined,
  started: number,
  error: unknown,
): void {
  if (!call.scope) return;
  const durationMs = performance.now() - started;
  const failure = error === undefined ? undefined : failureOf(error);
  call.scope.attempt({ attempt, method: call.method, path: `/${call.path}`, status, failure, durationMs });
}

/** What failed an attempt, for its event: a passed deadline, else the network error. */
function failureOf(error: unknown): unknown {
  if (!(error instanceof WireFailure)) return error;
  return error.deadline ? { name: 'TimeoutError' } : (error.cause ?? error);
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

/** A failure before any answer (no status: a reset then is a stale socket) or mid-body. */
function brokenBy(answer: Answer, call: Call, error: unknown, baseUrl: string): Answer {
  if (error instanceof ConnectionError) return answer.fail(error);
  const { status, attempts, path } = answer;
  const where = { method: call.method, path, attempts, reference: call.reference, status, baseUrl };
  const failure = connectionError(error, where, call.secrets, call.unknownAdvice);
  return answer.fail(failure, status === undefined && isReset(error));
}

function timedOut(answer: Answer, call: Call, timeoutMs: number): TimeoutError {
  const { method, path, attempts, status } = answer;
  const stage = status === undefined ? 'did not answer' : `sent HTTP ${status} but not the whole body`;
  const next = call.unknownAdvice ?? 'Raise timeoutMs, or check the network to the service.';
  return new TimeoutError({
    method,
    path,
    attempts,
    outcome: 'unknown',
    reference: call.reference,
    message: `${method} ${path} ${stage} within ${timeoutMs} ms (attempt ${attempts}). ${next}`,
  });
}
