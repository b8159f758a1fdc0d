/**
 * The error hierarchy of the public contract (the public API contract, "Errors"), in one place
 * for importers: the base (error-base.ts), the refusals by HTTP status (api-errors.ts), and here
 * the rest, each class branded for `instanceof` across copies of the package. The classes of the
 * service's own error identifiers (AlreadyFinalError…) are rows of src/api/refusals.ts.
 *
 * Every property of every error is safe to log: bodies and headers are redacted when the
 * error is built (see redact.ts), credentials are never stored on an error, and `cause` is
 * only ever a low-level network error, never an object that holds the request or its headers.
 */
import {
  ApiError,
  AuthenticationError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from './api-errors.js';
import { brand, PayinoutError, type RequestContext } from './error-base.js';
import { redactAndCut } from './redact.js';

export {
  ApiError,
  type ApiErrorInit,
  AuthenticationError,
  NotFoundError,
  RateLimitError,
  ServerError,
  UnprocessableEntityError,
} from './api-errors.js';
export { PayinoutError, type RequestContext } from './error-base.js';

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

/** Why a webhook delivery was refused ({@link WebhookVerificationError.reason}); node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md maps each to a status code. */
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
brand({
  PayinoutError,
  ConfigurationError,
  RequestValidationError,
  ApiError,
  AuthenticationError,
  NotFoundError,
  UnprocessableEntityError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  ResponseValidationError,
  WebhookVerificationError,
  SandboxUnavailableError,
});
