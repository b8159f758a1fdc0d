/**
 * The one request path of a client: request validation → one HTTP exchange (http.ts) → envelope
 * reader → typed result, with retries for calls that are safe to resend and reconciliation
 * (reconcile.ts) for calls that carry a recovery. Every attempt ends in a typed Outcome; nothing
 * is tagged on an error after it was built.
 */
import type * as z from 'zod/mini';
import { safeParse } from '../schemas/kit.js';
import { VERSION } from '../version.js';
import { AnswerReader } from './answer.js';
import { type Call, callState, exchangeOf, lazy } from './call.js';
import type { Dispatcher, Scope } from './dispatch.js';
import { RequestValidationError } from './errors.js';
import { Http, isFailed } from './http.js';
import type { CallEvents } from './observer.js';
import { checkRequestOptions } from './options.js';
import { reconcile } from './reconcile.js';
import { failureOf, isRetriableStatus, Pacer } from './retry.js';
import type { Sender } from './sender.js';
import {
  type CallOptions,
  type CallSpec,
  LANE,
  type Logger,
  type Recovery,
  VALIDATED,
  type WithResponse,
} from './types.js';
import { serialize } from './wire.js';

export { MAX_TIMER_MS } from './limits.js';
export type { Logger, RequestOptions, ResponseMeta, WithResponse } from './types.js';

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
  /** The platform's sender (node:http on Node), used when no `fetch` was given. */
  sender?: Sender | undefined;
  logger?: Logger | undefined;
  appInfo?: { name: string; version?: string } | undefined;
  /** Who is told of each call and attempt (the logger, a tracer); none: nothing is built per call. */
  observers?: Dispatcher<CallEvents> | undefined;
}

export class Transport {
  readonly #http: Http;
  readonly #config: Readonly<TransportConfig>;
  readonly #reader: AnswerReader;
  readonly #observers: Dispatcher<CallEvents> | undefined;

  constructor(config: TransportConfig) {
    this.#config = Object.freeze({ ...config });
    const app = config.appInfo
      ? ` ${config.appInfo.name}${config.appInfo.version ? `/${config.appInfo.version}` : ''}`
      : '';
    const runtime = typeof process !== 'undefined' && process.version ? ` node/${process.version}` : '';
    this.#http = new Http({ ...config, userAgent: `payinout/${VERSION}${runtime}${app}` });
    this.#reader = new AnswerReader(config.strictResponses, config.logger);
    this.#observers = config.observers;
  }

  get strictResponses(): boolean {
    return this.#config.strictResponses;
  }

  /** The client's retry budget per call (a batch item's too, unless the batch sets its own). */
  get maxRetries(): number {
    return this.#config.maxRetries;
  }

  request<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    options: CallOptions = {},
  ): Promise<WithResponse<z.infer<T>>> {
    // Observed calls are wrapped by the guarded dispatcher; unobserved ones take the plain path.
    if (!this.#observers) return this.#request(spec, options, undefined);
    const site = { method: spec.method, operation: spec.operation, template: spec.template };
    return this.#observers.around('call', site, (scope) => this.#request(spec, options, scope));
  }

  async #request<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    options: CallOptions,
    scope: Scope | undefined,
  ): Promise<WithResponse<z.infer<T>>> {
    checkRequestOptions(options);
    const sent = options[VALIDATED] === true ? spec.body : this.#validate(spec);
    // Serialized once, before anything is sent: a value JSON cannot carry (a BigInt in an extra
    // key) is the caller's mistake, never a network failure with an unknown outcome.
    const body = serialize(sent, spec.request?.what);
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    const call: Call = callState(this.#http.credentials, body, options, maxRetries);
    // The recovery is built from the body exactly as it is sent (validated, normalised).
    const recovery = typeof spec.resend === 'function' ? spec.resend(sent) : undefined;
    if (recovery) scope?.reference(recovery.key, () => call.secrets);
    if (recovery === undefined)
      return this.#retrying(spec, body, call, spec.resend === 'safe' ? maxRetries : 0, scope);
    return this.#reconciling(spec, body, call, recovery, scope) as Promise<WithResponse<z.infer<T>>>;
  }

  /**
   * A call with a recovery (a create). Its first send outside a batch's lane is made here: when
   * it is answered and the answer contradicts nothing (the common case) it is the result, and
   * reconciliation (reconcile.ts) is never set up; otherwise it takes over from that outcome.
   */
  async #reconciling<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    body: string | undefined,
    call: Call,
    recovery: Recovery,
    scope: Scope | undefined,
  ): Promise<WithResponse<unknown>> {
    const exchange = exchangeOf(spec, body, call, recovery, scope);
    const send = async () => this.#reader.outcome(spec, await this.#http.send(exchange), recovery);
    const inLane = call.options[LANE] !== undefined;
    const first = inLane ? undefined : await send();
    if (first?.ok && recovery.contradiction(first.value) === undefined) return first.value;
    return reconcile({
      recovery,
      method: spec.method,
      path: `/${spec.path}`,
      pacer: lazy(() => this.#pacer(call, call.maxRetries)),
      inLane,
      first,
      signal: call.options.signal,
      logger: this.#config.logger,
      attempts: () => call.count,
      send,
      run: (lookup) => this.#lookup(lookup, call, scope),
    });
  }

  /** A reconciliation lookup, inside the call; its observers hear it as a lookup of the call's scope. */
  #lookup<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    call: Call,
    scope: Scope | undefined,
  ): Promise<WithResponse<z.infer<T>>> {
    if (!scope) return this.#retrying(spec, undefined, call, call.maxRetries, undefined);
    const site = { method: spec.method, operation: spec.operation, template: spec.template };
    return scope.lookup(site, (inner) => this.#retrying(spec, undefined, call, call.maxRetries, inner));
  }

  #pacer(call: Call, maxRetries: number): Pacer {
    return new Pacer(maxRetries, call.options.signal, call.options[LANE]);
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
   * The loop of a call that may be repeated as it is: at most `1 + maxRetries` HTTP requests,
   * each repeat decided and timed by the one policy (retry.ts), read to a typed result or thrown
   * as a typed error. A call that may not be repeated passes 0: one attempt.
   */
  async #retrying<T extends z.ZodMiniType>(
    spec: CallSpec<T>,
    body: string | undefined,
    call: Call,
    maxRetries: number,
    scope: Scope | undefined,
  ): Promise<WithResponse<z.infer<T>>> {
    const exchange = exchangeOf(spec, body, call, undefined, scope);
    // Made at the first failure (a call that succeeds at once pays nothing for it), or at once
    // in a batch's lane, whose pause every attempt waits for.
    let pacer = call.options[LANE] ? this.#pacer(call, maxRetries) : undefined;
    for (;;) {
      const ready = pacer?.ready();
      if (ready) await ready;
      const answer = await this.#http.send(exchange);
      const failed = isFailed(answer) || isRetriableStatus(answer.status);
      if (failed && maxRetries + (pacer?.lane?.maxPauses ?? 0) > 0) {
        pacer ??= this.#pacer(call, maxRetries);
        const wait = pacer.plan(isFailed(answer) ? failureOf(answer.error, answer.staleSocket) : answer);
        if (wait) {
          await pacer.take(wait);
          continue;
        }
      }
      const outcome = this.#reader.outcome(spec, answer);
      if (outcome.ok) return outcome.value as WithResponse<z.infer<T>>;
      throw outcome.error;
    }
  }
}
