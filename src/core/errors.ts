/**
 * The error hierarchy of the public contract (shared/design/public-api.md, "Errors").
 *
 * Every property of every error is safe to log: bodies and headers are redacted when the
 * error is built (see redact.ts), credentials are never stored on an error, and `cause` is
 * only ever a low-level network error, never a ky error (which holds the request headers).
 */
import type { ApiErrorCode } from '../schemas/catalog.js';
import { redactHeaders, redactValue, scrubText } from './redact.js';

const inspectSymbol = Symbol.for('nodejs.util.inspect.custom');

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
  constructor(what: string, issues: ValidationIssue[]) {
    const list = issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n');
    super(
      `Invalid ${what}; nothing was sent. Fix these fields (or pass validateRequests: false to let the service decide):\n${list}`,
    );
    this.issues = issues;
  }
}

/** What an {@link ApiError} is built from (used by the SDK; rarely needed by applications). */
export interface ApiErrorInit extends Partial<RequestContext> {
  /** HTTP status of the answer. */
  status: number;
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
  readonly status: number;
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
    const errorCode = stringField(envelope, 'error');
    const rawMessage = stringField(envelope, 'message');
    const serviceMessage = rawMessage === undefined ? undefined : scrubText(rawMessage, secrets);
    const where = init.method && init.path ? `${init.method} ${init.path} ` : '';
    const what = [`HTTP ${init.status}`, errorCode].filter(Boolean).join(' ');
    const said = serviceMessage ? `: ${serviceMessage}` : '';
    super(`${where}failed with ${what}${said}. ${init.advice ?? ApiError.advice}`.trim());
    this.status = init.status;
    this.code = code;
    this.errorCode = errorCode as ApiErrorCode | undefined;
    this.serviceMessage = serviceMessage;
    this.body = redactValue(typeof init.body === 'string' ? init.body.slice(0, 2000) : init.body, secrets);
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
    'Check the ticket or reference and that it belongs to this merchant in this environment (sandbox confirm also answers 404 in production).';
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
    'This payment method does not support that status in sandbox confirm; see the supported-status table (docs/testing.md).';
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
  constructor(init: ConnectionErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.outcome = init.outcome ?? 'unknown';
    this.reference = init.reference;
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
  /** First 2,000 characters of the body, redacted. */
  readonly body: unknown;
  constructor(init: {
    message: string;
    status?: number;
    issues?: ValidationIssue[];
    method?: string;
    path?: string;
    attempts?: number;
    body?: unknown;
    secrets?: readonly string[];
  }) {
    super(init.message);
    this.status = init.status;
    this.issues = init.issues ?? [];
    this.method = init.method;
    this.path = init.path;
    this.attempts = init.attempts;
    this.body = redactValue(
      typeof init.body === 'string' ? init.body.slice(0, 2000) : init.body,
      init.secrets,
    );
  }
}

/** Why a webhook delivery was refused ({@link WebhookVerificationError.reason}); docs/webhooks.md maps each to a status code. */
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

// A Map, not an object literal: an `error` of 'constructor' or 'valueOf' must not find a class.
const BY_ERROR_CODE = new Map<string, typeof ApiError>([
  ['NOT_FOUND', NotFoundError],
  ['VALIDATION_ERROR', UnprocessableEntityError],
  ['ALREADY_FINAL', AlreadyFinalError],
  ['TYPE_MISMATCH', TypeMismatchError],
  ['STATUS_NOT_SUPPORTED', StatusNotSupportedError],
  ['CONFIRM_FAILED', ConfirmFailedError],
]);

function classForStatus(status: number): typeof ApiError {
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
  const ErrorClass = (errorCode && BY_ERROR_CODE.get(errorCode)) || classForStatus(init.status);
  return new ErrorClass({ ...init, advice: init.advice ?? ErrorClass.advice });
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
