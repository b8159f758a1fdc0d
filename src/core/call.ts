/**
 * The two shapes a request takes in the engine above the wire (docs/architecture.md, "The request
 * path"); between them http.ts hands the sender a WireRequest and gets its WireResponse (sender.ts):
 * - {@link Call}: the request as a resource states it (what its table entry fixes, the params, the
 *   per-call options) and, once the transport starts it, its state across attempts;
 * - {@link Answer}: one attempt's answer (or the failure that took its place), then read by the
 *   envelope reader to the call's result or its typed error.
 * With them, the contract of a call that must not be resent blindly ({@link Recovery}), whose
 * lookups are Calls run inside it.
 */
import type * as z from 'zod/mini';
import type { ResponseSchema } from '../schemas/kit.js';
import type { ErrorClassifier } from './api-errors.js';
import type { Scope } from './dispatch.js';
import { collectSecrets } from './redact.js';
import { type CallOptions, LANE, type WithResponse } from './types.js';

const NONE: readonly string[] = Object.freeze([]);

/**
 * What a call marked {@link Call.notFoundIsAnswer} resolves with when the service answers a
 * refusal that would be a NotFoundError: "nothing there", with no error built. A batch looks
 * every new item up before creating it, so the miss is its common answer, and a scrubbed,
 * stack-carrying NotFoundError for each one was a tenth of a queue worker's CPU
 * (docs/performance.md, "Queue (payinout/bullmq)").
 */
export const NOT_FOUND: unique symbol = Symbol('payinout.notFound');
export type NotFound = typeof NOT_FOUND;

/** The parts of a call its table entry fixes: one object serves every call of an operation. */
type FromTable<T extends z.ZodMiniType> = Pick<
  Call<T>,
  'method' | 'operation' | 'template' | 'request' | 'response' | 'resend' | 'errors'
>;

/**
 * One request, from the resource method to its last attempt. A class: V8 builds an object literal
 * with getters slowly (about 1 µs per call, docs/performance.md "0.4: per-call cost"), and the
 * body stays private: it holds the customer's data, which nothing that inspects a call may show.
 */
export class Call<T extends z.ZodMiniType = z.ZodMiniType> {
  // The table entry's parts (`declare`: the constructor copies them in one Object.assign; the
  // entries of resources/operation.ts and api/recovery.ts list them in one order, so every Call
  // has one layout).
  declare readonly method: 'GET' | 'POST';
  /** The table's operation id ('payin.create'), for tracing. */
  declare readonly operation: string | undefined;
  /** The table's path template ('/api/v1/transaction/{ticket}'): spans are named by it, never by `path`. */
  declare readonly template: string | undefined;
  /** Client-side schema for the body, checked when validateRequests is on. */
  declare readonly request: { schema: z.ZodMiniType; what: string } | undefined;
  declare readonly response: ResponseSchema<T>;
  declare readonly resend: Resend;
  /** The class and advice of a refusal by what the table knows of it; else its HTTP status's. */
  declare readonly errors: ErrorClassifier | undefined;
  /** Runs on the envelope's `data` before the schema; may throw a typed error. */
  unwrap: ((data: unknown, answer: Answer) => unknown) | undefined;
  /**
   * A refusal that would be a NotFoundError resolves with {@link NOT_FOUND} instead of throwing
   * it: set by a caller that expects a miss (a batch's lookup-first), never by a public method.
   */
  notFoundIsAnswer = false;
  /** Set when the call starts: its repeat budget, a create's recovery, where its attempts are told. */
  maxRetries = 0;
  recovery: Recovery | undefined;
  scope: Scope | undefined;
  readonly #body: unknown;
  #sent: string | undefined;
  #count = 0;
  #credentials: readonly string[] = NONE;
  #secrets: readonly string[] | undefined;
  /** The call a lookup runs inside: its attempts, options and secrets are that call's. */
  #outer: Call | undefined;

  constructor(
    entry: FromTable<T>,
    /** Relative to baseUrl, without a leading slash: 'api/v2/payin'. */
    readonly path: string,
    body: unknown,
    public options: CallOptions = {},
  ) {
    Object.assign(this, entry);
    this.#body = body;
  }

  /** The body as the resource gave it. */
  get body(): unknown {
    return this.#body;
  }

  /** The body as it is sent, serialized once when the call started. */
  get sent(): string | undefined {
    return this.#sent;
  }

  /** Starts the call with what the client adds: credentials, the body as sent, the budget. */
  begin(
    credentials: readonly string[],
    sent: string | undefined,
    maxRetries: number,
    recovery: Recovery | undefined,
    scope: Scope | undefined,
  ): void {
    this.#credentials = credentials;
    this.#sent = sent;
    this.maxRetries = maxRetries;
    this.recovery = recovery;
    this.scope = scope;
  }

  /** Makes this call a lookup inside `outer`: same options and budget, attempts counted together. */
  inside(outer: Call, scope: Scope | undefined): void {
    this.#outer = outer;
    this.options = outer.options;
    this.maxRetries = outer.maxRetries;
    this.scope = scope;
  }

  /** Counts one more HTTP request of the whole call (sends and lookups alike); returns it, 1-based. */
  attempt(): number {
    if (this.#outer) return this.#outer.attempt();
    return ++this.#count;
  }

  /** HTTP requests made so far for the whole call. */
  get count(): number {
    return this.#outer ? this.#outer.count : this.#count;
  }

  /**
   * Credential and PII values of the request, scrubbed from anything an error keeps. Collected on
   * first read, which only an error or a failed attempt does: a call that succeeds never walks its
   * body for PII (bench "cpu"). Read from the body as serialized, so they are exactly what was
   * sent even if the caller's object changes afterwards.
   */
  get secrets(): readonly string[] {
    if (this.#outer) return this.#outer.secrets;
    const sent = this.#sent;
    this.#secrets ??=
      sent === undefined ? this.#credentials : [...this.#credentials, ...collectSecrets(JSON.parse(sent))];
    return this.#secrets;
  }

  /** A create's key (its reference), named in its errors. */
  get reference(): string | undefined {
    return this.recovery?.key;
  }

  /** A batch lane's last check before a create's bytes leave (types.ts Lane): only a create moves money. */
  get beforeWrite(): (() => void) | undefined {
    return this.recovery && this.options[LANE]?.beforeWrite;
  }

  /** What the caller must do when the outcome is unknown; worded only for a failure's message. */
  get unknownAdvice(): string | undefined {
    const recovery = this.recovery;
    return (
      recovery &&
      `It may have been processed: look it up with ${recovery.howToLookUp} before sending it again.`
    );
  }
}

/**
 * One attempt of a call: what came back, its body read in full (or the typed failure that took its
 * place, with what was seen before it), then, once read, the call's result or its typed error.
 * Returned, never thrown, so the retry and reconciliation logic reads facts, not error tags.
 */
export class Answer {
  /** HTTP status, when the response headers arrived (before a failure too). */
  status: number | undefined;
  headers: Headers | undefined;
  text = '';
  /** The attempt failed, or its answer could not be read: `error` is the typed error. */
  failed = false;
  error: unknown;
  /** Reset before any response byte: typically a stale keep-alive socket. */
  staleSocket = false;
  /** A body that is not JSON at all (truncated, an HTML page). */
  unreadable = false;
  /** The envelope's `message` ('' when absent), once read. */
  message = '';
  /** Response fields missing or null that the default mode tolerated, once read (the client logs them). */
  missing: readonly string[] = NONE;
  /** The call's result, once read without failure (set by answer.ts). */
  declare value: WithResponse<unknown>;
  // Private: the call holds the customer's data and the caller's options.
  readonly #call: Call;

  readonly method: string;
  /** The request's path as messages name it: '/api/v2/payin'. */
  readonly path: string;

  constructor(
    call: Call,
    /** The call's HTTP requests so far, this one included (1-based, lookups counted). */
    readonly attempts: number,
  ) {
    this.#call = call;
    this.method = call.method;
    this.path = `/${call.path}`;
  }

  /** Read by an error only: a call that succeeds never collects them. */
  get secrets(): readonly string[] {
    return this.#call.secrets;
  }

  answered(response: { status: number; headers: Headers; text: string }): this {
    this.status = response.status;
    this.headers = response.headers;
    this.text = response.text;
    return this;
  }

  fail(error: unknown, staleSocket = false, unreadable = false): this {
    this.failed = true;
    this.error = error;
    this.staleSocket = staleSocket;
    this.unreadable = unreadable;
    return this;
  }
}

/**
 * How a call may be repeated:
 * - 'safe': resent as it is (reads, idempotent updates);
 * - 'never': one attempt only;
 * - a RecoveryFactory: the call creates something and the service has no idempotency key. Before
 *   it is resent, the recovery looks it up (core/reconcile.ts); never two sends without a lookup.
 */
export type Resend = 'safe' | 'never' | RecoveryFactory;

/** Runs one more call (a lookup) inside the current one: same options, attempts counted together. */
export type Runner = <T extends z.ZodMiniType>(lookup: Call<T>) => Promise<WithResponse<z.infer<T>>>;

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

/** `make()` on first use, then the same value: a call that succeeds at once never builds it. */
export function lazy<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
}
