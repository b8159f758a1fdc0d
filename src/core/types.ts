/**
 * The shapes the transport works with: what a call is (CallSpec), how the caller tunes it
 * (RequestOptions), what it answers (ResponseMeta) and how a call that must not be resent blindly
 * is settled (Recovery). Types only, and nothing here names an endpoint: the operations table
 * (src/api/) fills them in.
 */
import type * as z from 'zod/mini';
import type { ResponseSchema } from '../schemas/kit.js';
import type { ErrorClassifier } from './api-errors.js';

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

/** What the envelope reader knows about the answer, for an `unwrap` that must fail typed. */
export interface AnswerInfo {
  method: string;
  path: string;
  status: number;
  attempts: number;
}

/**
 * How a call may be repeated:
 * - 'safe': resent as it is (reads, idempotent updates);
 * - 'never': one attempt only;
 * - a RecoveryFactory: the call creates something and the service has no idempotency key. Before
 *   it is resent, the recovery looks it up (core/reconcile.ts); never two sends without a lookup.
 */
export type Resend = 'safe' | 'never' | RecoveryFactory;

/** One call of the service, as the operations table describes it. */
export interface CallSpec<T extends z.ZodMiniType = z.ZodMiniType> {
  method: 'GET' | 'POST';
  /** Relative to baseUrl, without a leading slash: 'api/v2/payin'. */
  path: string;
  /** The table's operation id ('payin.create'), for tracing. */
  operation?: string | undefined;
  /** The table's path template ('/api/v1/transaction/{ticket}'): spans are named by it, never by `path`. */
  template?: string | undefined;
  body?: unknown;
  /** Client-side schema for the body, checked when validateRequests is on. */
  request?: { schema: z.ZodMiniType; what: string } | undefined;
  response: ResponseSchema<T>;
  /** Runs on the envelope's `data` before the schema; may throw a typed error. */
  unwrap?: ((data: unknown, answer: AnswerInfo) => unknown) | undefined;
  resend: Resend;
  /** The class and advice of a refusal by what the table knows of it; else its HTTP status's. */
  errors?: ErrorClassifier | undefined;
}

/** Runs one more call (a lookup) inside the current one: same options, attempts counted together. */
export type Runner = <T extends z.ZodMiniType>(spec: CallSpec<T>) => Promise<WithResponse<z.infer<T>>>;

/** What a recovery's lookup showed. */
export type Finding =
  /** Provably this call's own result: `result` is returned to the caller, marked recovered. */
  | { kind: 'found'; result: object; id: string }
  /** The service knows nothing of it: resending is safe. */
  | { kind: 'absent' }
  /** Something shows, but it cannot be proven to be this call's: the outcome stays unknown. */
  | { kind: 'unproven'; why: string; cause?: unknown };

/** How one call is settled after an answer was lost; built from the body exactly as it was sent. */
export interface Recovery {
  /** The identifier the caller looks the call up by (a create's reference), named in errors. */
  key: string;
  /** How to look it up: `client.transactions.get('…')`, quoted in messages. */
  howToLookUp: string;
  find(run: Runner): Promise<Finding>;
  /** The service's id of the created object, when an answer that cannot be read still shows it. */
  idIn(body: unknown): string | undefined;
  /**
   * Why a successful answer is not provably this call's own (it echoes another key, amount or
   * currency), or `undefined` when nothing it shows contradicts what was sent.
   */
  contradiction(value: unknown): string | undefined;
}

/** Builds the recovery of a call from the body that is sent; `undefined` when it has no key. */
export type RecoveryFactory = (sent: unknown) => Recovery | undefined;

/**
 * How one HTTP attempt ended: a typed result, or a typed failure with what was seen before it.
 * Returned, never thrown, so the retry and reconciliation logic reads facts, not error tags.
 */
export type AttemptOutcome = { ok: true; value: WithResponse<unknown> } | Failed;

/**
 * A failed attempt: the typed error and what was seen before it. The one shape of a failure,
 * whether the exchange broke (http.ts) or its answer could not be read (answer.ts).
 */
export interface Failed {
  ok: false;
  error: unknown;
  /** HTTP status, when the response headers arrived before the failure. */
  status: number | undefined;
  /** Reset before any response byte: typically a stale keep-alive socket. */
  staleSocket: boolean;
  /** A body that is not JSON at all (truncated, an HTML page). */
  unreadable?: boolean;
}
