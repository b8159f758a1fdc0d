/**
 * What surrounds a call: how the caller tunes it (RequestOptions, and the engine's own keys of a
 * batch's lane and a validated body), what its result carries (ResponseMeta), the logger, and a
 * batch's shared pause. Types only, and nothing here names an endpoint. The request itself and
 * its answer are call.ts.
 */

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

/**
 * A pause several calls share (a batch's lanes): when the service asks one of them to wait (a 429,
 * a Retry-After), none of them sends before the time is up. Structural, so a queue can supply its
 * own (a rate limiter shared by workers).
 */
export interface SharedPause {
  /** No request starts before `epochMs` (ms since epoch); a later pause wins. */
  pauseUntil(epochMs: number): void;
  /** Resolves when a request may start, or at once when `signal` is aborted. Never rejects. */
  ready(signal?: AbortSignal): Promise<void>;
}

/**
 * How a call of a batch item runs (not public: set by src/bulk/ under the {@link LANE} key of the
 * call's options). Its waits go through the batch's shared pause, rate limits spend their own
 * budget, and no repeat starts once the batch stopped.
 */
export interface Lane {
  pause: SharedPause;
  /** Rate-limit waits tolerated per call, apart from `maxRetries`. */
  maxPauses: number;
  /** The batch's signal: wakes the lane's waits; the request in flight is never cut by it. */
  signal?: AbortSignal | undefined;
  /** Whether no repeat may start: the batch was aborted or halted. */
  stopped(): boolean;
  /**
   * Called synchronously right before a create's bytes leave, at every send of it (resends too):
   * a queue worker's check that it still holds the reference. What it throws is the call's error,
   * and nothing of that request is sent.
   */
  beforeWrite?: (() => void) | undefined;
}

/**
 * The options key under which a batch passes its {@link Lane} (a symbol: never a public option).
 * `Symbol.for`: a payinout/bullmq worker loaded as ESM and its client loaded as CommonJS hold two
 * copies of this module, and the worker's lane (the queue-wide pause) must still reach the client.
 */
export const LANE: unique symbol = Symbol.for('payinout.lane');

/** Per-call options; they apply to that call only and never change the client. */
export interface RequestOptions {
  signal?: AbortSignal;
  /** Per attempt, covering the response headers and the whole body. At most 2,147,483,647. */
  timeoutMs?: number;
  /** How often a failed call is repeated; 0 = exactly one attempt. */
  maxRetries?: number;
  headers?: Record<string, string>;
}

/**
 * The options key a batch sets when the body is already the request schema's output: a
 * `createMany` item is validated once, before its lookup, and its create sends it as it is.
 * A private symbol, not `Symbol.for`: no code outside this copy of payinout can skip validation
 * (a second copy of the module, e.g. CommonJS beside ESM, only validates again).
 */
export const VALIDATED: unique symbol = Symbol('payinout.validated');

/** Per-call options as the engine reads them: the public ones, a batch's lane, a validated body. */
export type CallOptions = RequestOptions & {
  readonly [LANE]?: Lane | undefined;
  readonly [VALIDATED]?: true | undefined;
};

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
