/**
 * The error hierarchy of the public contract (the public API contract, "Errors").
 *
 * Every property of every error is safe to log: bodies and headers are redacted when the
 * error is built (see redact.ts), credentials are never stored on an error, and `cause` is
 * only ever a low-level network error, never an object that holds the request or its headers.
 */
import type { ApiErrorCode } from '../schemas/catalog.js';
import { refusalAdvice, sandboxNotFoundAdvice } from './advice.js';
import { asRecord } from './guards.js';
import { guideUrl } from './guides.js';
import { redactAndCut, redactHeaders, scrubText } from './redact.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');
/** Names each error class across copies of the package (see `PayinoutError[Symbol.hasInstance]`). */
const BRAND = Symbol.for('payinout.error.class');
/** Any error class, abstract ones included: the `this` of `Symbol.hasInstance`. */
type Constructor<T> = abstract new (...args: never[]) => T;

/** Where the failing call went; present on every error that concerns a request. */
export interface RequestContext {
  method: string;
  path: string;
  /** How many HTTP attempts were made (1 = no retry). */
  attempts: number;
}

/**
 * The base of every error the SDK throws; catch it to handle all of them. Its subclasses say
 * what happened: {@link RequestValidationError} (nothing sent), {@link ApiError} and its
 * per-status subclasses (the service answered with an error), {@link ConnectionError} (no
 * answer), {@link ResponseValidationError}, {@link WebhookVerificationError},
 * {@link ConfigurationError}, {@link SandboxUnavailableError}. Every property, the message, the
 * JSON form and `util.inspect` output are safe to log: no credentials, customer data redacted.
 * @example
 * try {
 *   await client.payin.create(params);
 * } catch (error) {
 *   if (error instanceof RequestValidationError) console.log(error.issues); // nothing was sent
 *   else if (error instanceof ApiError) console.log(error.status, error.errorCode, error.serviceMessage);
 *   else if (error instanceof ConnectionError && error.outcome === 'unknown') {
 *     // the create may have been processed: look error.reference up before trying again
 *   } else if (error instanceof PayinoutError) console.log(error.message);
 *   else throw error;
 * }
 */
export class PayinoutError extends Error {
  override name = 'PayinoutError';

  /**
   * `instanceof` across copies of the package: an app whose dependencies load both the ESM and
   * the CommonJS build (or two installs) holds two `PayinoutError` classes; an error from one copy
   * still passes `instanceof` with the other's class (and each subclass with its own), matched by
   * the brand each class's prototype carries under a `Symbol.for` key.
   * @internal What `instanceof` calls; not a method to call yourself.
   */
  static override [Symbol.hasInstance]<T>(this: Constructor<T>, value: unknown): value is T {
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class right of `instanceof`, a subclass too
    return isInstance(this, value);
  }

  /** Plain, safe representation: what `JSON.stringify(error)` prints. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { name: this.name, message: this.message };
    for (const [key, value] of Object.entries(this)) if (key !== 'name') out[key] = value;
    return out;
  }

  /** `util.inspect` / console.log shows the same safe fields plus the stack. */
  [inspectSymbol](): string {
    const { name: _name, message: _message, ...rest } = this.toJSON();
    const fields = Object.keys(rest).length ? ` ${JSON.stringify(rest)}` : '';
    return `${this.stack ?? `${this.name}: ${this.message}`}${fields}`;
  }
}

/**
 * Ordinary `instanceof`, else: the value is a payinout error of some copy (PayinoutError's brand
 * is on its prototype chain) and a class on that chain has the brand of `ErrorClass`.
 */
function isInstance(ErrorClass: Constructor<unknown>, value: unknown): boolean {
  if (Function.prototype[Symbol.hasInstance].call(ErrorClass, value)) return true;
  if (value === null || typeof value !== 'object') return false;
  const chain: object[] = [];
  for (let proto = Object.getPrototypeOf(value); proto && proto !== Object.prototype; ) {
    chain.push(proto);
    proto = Object.getPrototypeOf(proto);
  }
  if (!chain.some((proto) => brandOf(proto) === 'payinout:PayinoutError')) return false;
  const wanted = brandOf(ErrorClass.prototype as object);
  return chain.some((proto) => brandOf(proto) === wanted);
}

/**
 * The classes of this file carry a literal brand (BRANDED below); a subclass defined elsewhere
 * is known by its class name, which the build keeps (tsup keepNames).
 */
function brandOf(proto: object): unknown {
  if (Object.hasOwn(proto, BRAND)) return (proto as Record<symbol, unknown>)[BRAND];
  return `payinout:~${(proto as { constructor?: { name?: string } }).constructor?.name}`;
}

/** Invalid client options or environment variables; thrown by the constructor or `fromEnv()`. */
export class ConfigurationError extends PayinoutError {
  override name = 'ConfigurationError';
}

/** One field a request or response check rejected. */
export interface ValidationIssue {
  /** Dotted field path, e.g. `customer_data.legal_doc_type`. */
  path: string;
  /** What is wrong with it, e.g. 'is required'. */
  message: string;
}

/** A client-side check failed; nothing was sent. */
export class RequestValidationError extends PayinoutError {
  override name = 'RequestValidationError';
  readonly issues: ValidationIssue[];
  /** `skippable`: whether `validateRequests: false` turns this check off (a schema check) or not. */
  constructor(what: string, issues: ValidationIssue[], skippable = true) {
    const list = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n');
    const skip = skippable ? ' (or pass validateRequests: false to let the service decide)' : '';
    super(`Invalid ${what}; nothing was sent. Fix these fields${skip}:\n${list}`);
    this.issues = issues;
  }
}

/** What an {@link ApiError} is built from (used by the SDK; rarely needed by applications). */
export interface ApiErrorInit extends Partial<RequestContext> {
  /** HTTP status of the answer; `undefined` for a refusal raised before sending. */
  status: number | undefined;
  /** The error identifier, when there is no body to read it from (a refusal before sending). */
  errorCode?: string | undefined;
  /** The parsed envelope or the raw text of the answer. */
  body: unknown;
  headers?: Headers | Record<string, string>;
  /** Credential and PII values of the request, scrubbed from every text kept on the error. */
  secrets?: readonly string[];
  /** Guidance appended to the message; defaults to the class's own. */
  advice?: string | undefined;
}

/** The service answered with an error (HTTP status ≥ 400, or an envelope with status 'ERROR'). */
export class ApiError extends PayinoutError {
  override name = 'ApiError';
  /**
   * HTTP status of the answer. `undefined` only on a {@link StatusNotSupportedError} raised by the
   * client-side check, before anything was sent (its `attempts` is then 0).
   */
  readonly status: number | undefined;
  /** Envelope `code` ('00' for a validation or processing failure), when the body had one. */
  readonly code: string | undefined;
  /**
   * Envelope `error` identifier, e.g. 'ALREADY_FINAL', when the body had one. Typed as the known
   * identifiers so a typo does not compile; a newer one is kept as sent (see {@link ApiErrorCode}).
   */
  readonly errorCode: ApiErrorCode | undefined;
  /** Envelope `message` (credentials and PII scrubbed). */
  readonly serviceMessage: string | undefined;
  /** Response body, redacted. */
  readonly body: unknown;
  /** Response headers, lower-cased, credentials masked. */
  readonly headers: Record<string, string>;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number | undefined;

  constructor(init: ApiErrorInit) {
    const secrets = init.secrets ?? [];
    const envelope = asRecord(init.body);
    const code = stringField(envelope, 'code');
    const errorCode = stringField(envelope, 'error') ?? init.errorCode;
    const rawMessage = stringField(envelope, 'message');
    const serviceMessage = rawMessage === undefined ? undefined : scrubText(rawMessage, secrets);
    const where = init.method && init.path ? `${init.method} ${init.path} ` : '';
    const said = serviceMessage ? `: ${withoutStop(serviceMessage)}` : '';
    const advice = init.advice ?? ApiError.advice;
    if (init.status === undefined) {
      super(
        `${where}was refused before sending${errorCode ? ` (${errorCode})` : ''}${said}. ${advice}`.trim(),
      );
    } else {
      const what = [`HTTP ${init.status}`, errorCode].filter(Boolean).join(' ');
      super(`${where}failed with ${what}${said}. ${advice}`.trim());
    }
    this.status = init.status;
    this.code = code;
    this.errorCode = errorCode as ApiErrorCode | undefined;
    this.serviceMessage = serviceMessage;
    this.body = redactAndCut(init.body, secrets);
    this.headers = redactHeaders(init.headers, secrets);
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
  }

  static advice = 'The service refused the request; read the message above and correct the call.';
}

export class AuthenticationError extends ApiError {
  override name = 'AuthenticationError';
  static override advice =
    'Check username, password and token (PAYINOUT_USERNAME, PAYINOUT_PASSWORD, PAYINOUT_TOKEN) and that they were issued for the environment of baseUrl.';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
  static override advice =
    'Check the ticket or reference, that it belongs to this merchant in this environment, and that baseUrl is the environment root (paths such as /api/v1/… are joined to it).';
}
export class UnprocessableEntityError extends ApiError {
  override name = 'UnprocessableEntityError';
  static override advice = 'The service rejected the request body; fix the fields it names and resend.';
}
export class AlreadyFinalError extends UnprocessableEntityError {
  override name = 'AlreadyFinalError';
  static override advice =
    'The transaction is already in a different final status and cannot change; read it with client.transactions.get().';
}
export class TypeMismatchError extends UnprocessableEntityError {
  override name = 'TypeMismatchError';
  static override advice =
    'Use sandbox.confirmPayIn() for PayIn transactions and sandbox.confirmPayOut() for PayOut transactions.';
}
export class StatusNotSupportedError extends UnprocessableEntityError {
  override name = 'StatusNotSupportedError';
  static override advice =
    `This payment method does not support that status in sandbox confirm; see the supported-status table: ${guideUrl('testing.md', 'sandbox-confirm-supported-statuses')}.`;
}
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  static override advice = 'Too many requests; wait for the Retry-After interval before calling again.';
}
export class ServerError extends ApiError {
  override name = 'ServerError';
  static override advice =
    'The service failed on its side; safe calls were already retried. Try again later; for a create, look the reference up first.';
}
export class ConfirmFailedError extends ServerError {
  override name = 'ConfirmFailedError';
  static override advice = 'The sandbox status update failed on the service; calling confirm again is safe.';
}

/** What a {@link ConnectionError} is built from (used by the SDK; rarely needed by applications). */
export interface ConnectionErrorInit extends Partial<RequestContext> {
  /** The error's message. */
  message: string;
  /**
   * 'not_sent': the request provably never reached the service (e.g. connection refused).
   * 'unknown': it may have been processed; look the reference up before resending a create.
   */
  outcome?: 'not_sent' | 'unknown';
  /** The merchant reference of a create whose outcome is unknown. */
  reference?: string | undefined;
  /** The service's ticket, when an answer that could not be read still showed it. */
  ticket?: string | undefined;
  /** The service answered 2xx (it took the request) but the answer could not be read. */
  accepted?: boolean | undefined;
  /** The low-level network error (credentials scrubbed from its message). */
  cause?: unknown;
}

/** No HTTP answer: DNS, refused or reset connection, TLS failure. */
export class ConnectionError extends PayinoutError {
  override name = 'ConnectionError';
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number | undefined;
  readonly outcome: 'not_sent' | 'unknown';
  readonly reference: string | undefined;
  /** The service's ticket, when an accepted answer that could not be read still showed it. */
  readonly ticket?: string;
  /**
   * `true` when the service answered 2xx — it took the request — but the answer could not be
   * read and no lookup showed the result yet: never send it again, look it up later.
   */
  readonly accepted?: true;
  constructor(init: ConnectionErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.outcome = init.outcome ?? 'unknown';
    this.reference = init.reference;
    if (init.ticket !== undefined) this.ticket = init.ticket;
    if (init.accepted) this.accepted = true;
  }
}

/** The attempt (headers and body) did not complete within `timeoutMs`. */
export class TimeoutError extends ConnectionError {
  override name = 'TimeoutError';
}

/** The answer could not be read as the documented envelope or payload. */
export class ResponseValidationError extends PayinoutError {
  override name = 'ResponseValidationError';
  readonly status: number | undefined;
  readonly issues: ValidationIssue[];
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number | undefined;
  /** The body, redacted, then cut to its first 2,000 characters when it is text. */
  readonly body: unknown;
  /** The service's ticket, when a create was accepted (HTTP 2xx) but its answer could not be read. */
  readonly ticket?: string;
  constructor(init: {
    message: string;
    status?: number;
    issues?: ValidationIssue[];
    method?: string;
    path?: string;
    attempts?: number;
    body?: unknown;
    secrets?: readonly string[];
    ticket?: string;
  }) {
    super(init.message);
    this.status = init.status;
    this.issues = init.issues ?? [];
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.body = redactAndCut(init.body, init.secrets);
    if (init.ticket !== undefined) this.ticket = init.ticket;
  }
}

/**
 * A lookup answered several transactions for one ticket or reference. The SDK never picks one:
 * for a reference this is evidence that one payment may have been created more than once.
 */
export class AmbiguousTransactionError extends ResponseValidationError {
  override name = 'AmbiguousTransactionError';
  /** The ticket or reference that was looked up. */
  readonly id: string;
  /** The tickets of every transaction the answer showed for it. */
  readonly tickets: string[];
  constructor(init: {
    id: string;
    tickets: string[];
    method?: string;
    path?: string;
    attempts?: number;
    status?: number;
  }) {
    super({
      ...init,
      message:
        `${init.method ?? 'GET'} ${init.path ?? ''}: the service shows ${init.tickets.length} transactions for '${init.id}' ` +
        `(tickets ${init.tickets.join(', ')}), so payinout will not pick one. If they share the reference, the payment ` +
        "may have been created more than once: read each by its ticket and take it up with the service's support.",
    });
    this.id = init.id;
    this.tickets = [...init.tickets];
  }
}

/** Why a webhook delivery was refused ({@link WebhookVerificationError.reason}); https://github.com/payinout/payinout/blob/main/docs/webhooks.md maps each to a status code. */
export type WebhookFailureReason =
  | 'missing_signature'
  | 'signature_mismatch'
  | 'malformed_body'
  | 'body_too_large'
  | 'parsed_body';

/** A webhook delivery could not be verified or read. */
export class WebhookVerificationError extends PayinoutError {
  override name = 'WebhookVerificationError';
  readonly reason: WebhookFailureReason;
  constructor(reason: WebhookFailureReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

/** A sandbox call on a client whose environment is 'production'; nothing was sent. */
export class SandboxUnavailableError extends PayinoutError {
  override name = 'SandboxUnavailableError';
}

// The brand of each class, by literal name: a consumer's minifier may rename the classes themselves.
// ecosystem-tests/cases/dual-errors.mjs checks every exported error class across two copies.
const BRANDED = {
  PayinoutError,
  ConfigurationError,
  RequestValidationError,
  ApiError,
  AuthenticationError,
  NotFoundError,
  UnprocessableEntityError,
  AlreadyFinalError,
  TypeMismatchError,
  StatusNotSupportedError,
  RateLimitError,
  ServerError,
  ConfirmFailedError,
  ConnectionError,
  TimeoutError,
  ResponseValidationError,
  WebhookVerificationError,
  SandboxUnavailableError,
};
for (const [name, ErrorClass] of Object.entries(BRANDED)) {
  Object.defineProperty(ErrorClass.prototype, BRAND, { value: `payinout:${name}` });
}

// A Map, not an object literal: an `error` of 'constructor' or 'valueOf' must not find a class.
// Its keys are checked against the one table of identifiers (ERROR_CODES): a misspelt one does not compile.
const CLASS_BY_CODE: ReadonlyArray<readonly [ApiErrorCode, typeof ApiError]> = [
  ['NOT_FOUND', NotFoundError],
  ['VALIDATION_ERROR', UnprocessableEntityError],
  ['ALREADY_FINAL', AlreadyFinalError],
  ['TYPE_MISMATCH', TypeMismatchError],
  ['STATUS_NOT_SUPPORTED', StatusNotSupportedError],
  ['CONFIRM_FAILED', ConfirmFailedError],
];
const BY_ERROR_CODE = new Map<string, typeof ApiError>(CLASS_BY_CODE);

function classForStatus(status: number): typeof ApiError {
  if (status < 400) return ApiError;
  if (status === 401 || status === 403) return AuthenticationError;
  if (status === 404) return NotFoundError;
  if (status === 422) return UnprocessableEntityError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return ApiError;
}

/**
 * The one place an error class is chosen: the body's `error` identifier when it is one
 * the spec documents (it is more specific), else the HTTP status.
 */
export function createApiError(init: ApiErrorInit): ApiError {
  const errorCode = stringField(asRecord(init.body), 'error');
  const ErrorClass =
    (errorCode && BY_ERROR_CODE.get(errorCode)) ||
    (init.status === undefined ? ApiError : classForStatus(init.status));
  const fitting = refusalAdvice(errorCode, stringField(asRecord(init.body), 'message'));
  const advice = sandboxNotFoundAdvice(init.status, init.path) ?? init.advice ?? fitting ?? ErrorClass.advice;
  return new ErrorClass({ ...init, advice });
}

/** A sentence without its final period, so the SDK adds exactly one. */
function withoutStop(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
