/**
 * The errors of an answer the service refused: `ApiError` and a class per HTTP status, and
 * `createApiError`, the one place such a class is chosen. The classes of the service's own
 * identifiers (ALREADY_FINAL…) and their advice are rows of src/api/refusals.ts, handed to
 * `createApiError` as an {@link ErrorClassifier}. Branded with the other classes in errors.ts,
 * which re-exports everything here.
 */
import type { ApiErrorCode } from '../schemas/catalog.js';
import { PayinoutError, type RequestContext } from './error-base.js';
import { asRecord } from './guards.js';
import { redactAndCut, redactHeaders, scrubText } from './redact.js';

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

/** ApiError's own advice, also the default of its subclasses (a class body never names its class: the build then renames it). */
const REFUSED_ADVICE = 'The service refused the request; read the message above and correct the call.';

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
    const advice = init.advice ?? REFUSED_ADVICE;
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

  static advice = REFUSED_ADVICE;
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
export class RateLimitError extends ApiError {
  override name = 'RateLimitError';
  static override advice = 'Too many requests; wait for the Retry-After interval before calling again.';
}
export class ServerError extends ApiError {
  override name = 'ServerError';
  static override advice =
    'The service failed on its side; safe calls were already retried. Try again later; for a create, look the reference up first.';
}
/**
 * The class of an answer by its HTTP status alone: what core knows without the service's
 * description. The service's identifiers refine it through an {@link ErrorClassifier}.
 */
export function classForStatus(status: number | undefined): typeof ApiError {
  if (status === undefined || status < 400) return ApiError;
  if (status === 401 || status === 403) return AuthenticationError;
  if (status === 404) return NotFoundError;
  if (status === 422) return UnprocessableEntityError;
  if (status === 429) return RateLimitError;
  if (status >= 500) return ServerError;
  return ApiError;
}

/** What an {@link ErrorClassifier} reads of a refusal. */
export interface Refusal {
  /** HTTP status; `undefined` for a refusal raised before sending. */
  status: number | undefined;
  /** The envelope's `error` identifier, when the body had one. */
  errorCode: string | undefined;
}

/** The class and advice a classifier chose; either may be left to the status class. */
export interface ErrorChoice {
  ErrorClass?: typeof ApiError | undefined;
  advice?: string | undefined;
}

/**
 * Chooses the class and advice of a refusal from what the service's description says of it (its
 * `error` identifier, the operation). Supplied per call by the table (src/api/refusals.ts), as a
 * create's recovery is: core knows HTTP statuses, not the service's identifiers.
 */
export type ErrorClassifier = (refusal: Refusal) => ErrorChoice | undefined;

/**
 * The one place an error class is chosen: the classifier's choice (the service's identifier is
 * more specific), else the HTTP status; the advice likewise, unless the caller gives its own.
 */
export function createApiError(init: ApiErrorInit, classify?: ErrorClassifier): ApiError {
  const choice = chooseRefusal(init, classify);
  const ErrorClass = choice?.ErrorClass ?? classForStatus(init.status);
  const advice = init.advice ?? choice?.advice ?? ErrorClass.advice;
  return new ErrorClass({ ...init, advice });
}

/**
 * Whether `createApiError` would make this refusal a {@link NotFoundError} (or a subclass):
 * decided by the same choice, without building the error.
 */
export function isNotFoundRefusal(
  init: Pick<ApiErrorInit, 'status' | 'body' | 'errorCode'>,
  classify?: ErrorClassifier,
): boolean {
  const ErrorClass = chooseRefusal(init, classify)?.ErrorClass ?? classForStatus(init.status);
  return ErrorClass === NotFoundError || ErrorClass.prototype instanceof NotFoundError;
}

function chooseRefusal(
  init: Pick<ApiErrorInit, 'status' | 'body' | 'errorCode'>,
  classify: ErrorClassifier | undefined,
): ErrorChoice | undefined {
  const errorCode = stringField(asRecord(init.body), 'error') ?? init.errorCode;
  return classify?.({ status: init.status, errorCode });
}

/** A sentence without its final period, so the SDK adds exactly one. */
function withoutStop(text: string): string {
  return text.trim().replace(/[.\s]+$/, '');
}

function stringField(record: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
