/**
 * The one request path of a client: a Call (call.ts) validated and serialized once → one HTTP
 * attempt (http.ts) → its Answer read by the envelope reader (answer.ts) → typed result, with
 * retries for calls that are safe to resend and reconciliation (reconcile.ts) for calls that carry
 * a recovery. Every attempt ends in an Answer holding a result or a typed error; nothing is
 * tagged on an error after it was built.
 */
import type * as z from 'zod/mini';
import { safeParse } from '../schemas/kit.js';
import { VERSION } from '../version.js';
import { AnswerReader } from './answer.js';
import { type Call, lazy, type Recovery } from './call.js';
import type { Dispatcher, Scope } from './dispatch.js';
import { RequestValidationError } from './errors.js';
import { Http } from './http.js';
import type { CallEvents } from './observer.js';
import { checkRequestOptions } from './options.js';
import { reconcile } from './reconcile.js';
import { failureOf, isRetriableStatus, Pacer } from './retry.js';
import type { Sender } from './sender.js';
import { LANE, type Logger, VALIDATED, type WithResponse } from './types.js';
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

  request<T extends z.ZodMiniType>(call: Call<T>): Promise<WithResponse<z.infer<T>>> {
    // Observed calls are wrapped by the guarded dispatcher; unobserved ones take the plain path.
    if (!this.#observers) return this.#request(call, undefined);
    const site = { method: call.method, operation: call.operation, template: call.template };
    return this.#observers.around('call', site, (scope) => this.#request(call, scope));
  }

  async #request<T extends z.ZodMiniType>(
    call: Call<T>,
    scope: Scope | undefined,
  ): Promise<WithResponse<z.infer<T>>> {
    const { options } = call;
    checkRequestOptions(options);
    const sent = options[VALIDATED] === true ? call.body : this.#validate(call);
    // Serialized once, before anything is sent: a value JSON cannot carry (a BigInt in an extra
    // key) is the caller's mistake, never a network failure with an unknown outcome.
    const body = serialize(sent, call.request?.what);
    const maxRetries = options.maxRetries ?? this.#config.maxRetries;
    // The recovery is built from the body exactly as it is sent (validated, normalised).
    const recovery = typeof call.resend === 'function' ? call.resend(sent) : undefined;
    call.begin(this.#http.credentials, body, maxRetries, recovery, scope);
    if (recovery) scope?.reference(recovery.key, () => call.secrets);
    if (recovery === undefined) return this.#retrying(call, call.resend === 'safe' ? maxRetries : 0);
    return this.#reconciling(call, recovery) as Promise<WithResponse<z.infer<T>>>;
  }

  /**
   * A call with a recovery (a create). Its first send outside a batch's lane is made here: when
   * it is answered and the answer contradicts nothing (the common case) it is the result, and
   * reconciliation (reconcile.ts) is never set up; otherwise it takes over from that outcome.
   */
  async #reconciling(call: Call, recovery: Recovery): Promise<WithResponse<unknown>> {
    const inLane = call.options[LANE] !== undefined;
    const first = inLane ? undefined : this.#reader.read(call, await this.#http.send(call));
    if (first && !first.failed && recovery.contradiction(first.value) === undefined) return first.value;
    // Built only now: a create answered at once never needs to send again.
    const pacer = lazy(() => this.#pacer(call, call.maxRetries));
    const send = async () => {
      const answer = await this.#http.send(call);
      const announced = inLane ? pacer().heard(answer) : undefined;
      if (announced) await announced;
      return this.#reader.read(call, answer);
    };
    return reconcile({
      recovery,
      method: call.method,
      path: `/${call.path}`,
      pacer,
      inLane,
      first,
      signal: call.options.signal,
      logger: this.#config.logger,
      attempts: () => call.count,
      send,
      run: (lookup) => this.#lookup(lookup, call),
    });
  }

  /** A reconciliation lookup, inside the call; its observers hear it as a lookup of the call's scope. */
  #lookup<T extends z.ZodMiniType>(lookup: Call<T>, call: Call): Promise<WithResponse<z.infer<T>>> {
    const { scope } = call;
    if (!scope) {
      lookup.inside(call, undefined);
      return this.#retrying(lookup, call.maxRetries);
    }
    const site = { method: lookup.method, operation: lookup.operation, template: lookup.template };
    return scope.lookup(site, (inner) => {
      lookup.inside(call, inner);
      return this.#retrying(lookup, call.maxRetries);
    });
  }

  #pacer(call: Call, maxRetries: number): Pacer {
    return new Pacer(maxRetries, call.options.signal, call.options[LANE]);
  }

  #validate(call: Call): unknown {
    if (!call.request || !this.#config.validateRequests) return call.body;
    const parsed = safeParse(call.request.schema, call.body);
    if (parsed.success) return parsed.data;
    throw new RequestValidationError(
      call.request.what,
      parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    );
  }

  /**
   * The loop of a call that may be repeated as it is: at most `1 + maxRetries` HTTP requests,
   * each repeat decided and timed by the one policy (retry.ts), read to a typed result or thrown
   * as a typed error. A call that may not be repeated passes 0: one attempt.
   */
  async #retrying<T extends z.ZodMiniType>(
    call: Call<T>,
    maxRetries: number,
  ): Promise<WithResponse<z.infer<T>>> {
    // Made at the first failure (a call that succeeds at once pays nothing for it), or at once
    // in a batch's lane, whose pause every attempt waits for.
    let pacer = call.options[LANE] ? this.#pacer(call, maxRetries) : undefined;
    for (;;) {
      const ready = pacer?.ready();
      if (ready) await ready;
      const answer = await this.#http.send(call);
      const announced = pacer?.heard(answer);
      if (announced) await announced;
      const failed = answer.failed || isRetriableStatus(answer.status);
      if (failed && maxRetries + (pacer?.lane?.maxPauses ?? 0) > 0) {
        pacer ??= this.#pacer(call, maxRetries);
        const wait = pacer.plan(answer.failed ? failureOf(answer.error, answer.staleSocket) : answer);
        if (wait) {
          await pacer.take(wait);
          continue;
        }
      }
      this.#reader.read(call, answer);
      if (!answer.failed) return answer.value as WithResponse<z.infer<T>>;
      throw answer.error;
    }
  }
}
