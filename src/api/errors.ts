/**
 * The service's refusals, described once: the error classes of its own identifiers (spec
 * "Errors"), and one row per identifier of ERROR_CODES with the class and advice it gets. Core
 * knows only HTTP statuses (core/api-errors.ts); it reaches these rows through the classifier
 * each call carries (`errorsOf`), as a create carries its recovery.
 */
import {
  type ApiError,
  type ApiErrorInit,
  classForStatus,
  createApiError as createByClassifier,
  type ErrorChoice,
  type ErrorClassifier,
  ServerError,
  UnprocessableEntityError,
} from '../core/api-errors.js';
import { brand } from '../core/error-base.js';
import { guide } from '../core/guides.js';
import { type ApiErrorCode, ERROR_CODES } from '../schemas/catalog.js';
import { OPERATION_LIST } from './operations.js';

/** 422 ALREADY_FINAL: the transaction is already in a different final status. */
export class AlreadyFinalError extends UnprocessableEntityError {
  override name = 'AlreadyFinalError';
}
/** 422 TYPE_MISMATCH: a PayIn confirm used on a PayOut, or the reverse. */
export class TypeMismatchError extends UnprocessableEntityError {
  override name = 'TypeMismatchError';
}
/**
 * 422 STATUS_NOT_SUPPORTED: the payment method does not take that status in sandbox confirm;
 * also raised before sending by the client-side check of the supported-status table.
 */
export class StatusNotSupportedError extends UnprocessableEntityError {
  override name = 'StatusNotSupportedError';
}
/** 500 CONFIRM_FAILED: the sandbox status update failed on the service. */
export class ConfirmFailedError extends ServerError {
  override name = 'ConfirmFailedError';
}
brand({ AlreadyFinalError, TypeMismatchError, StatusNotSupportedError, ConfirmFailedError });

/** What the SDK makes of one `error` identifier. */
export interface ErrorRow {
  /** The class, when it is more specific than its status's class (ERROR_CODES gives the status). */
  class?: typeof ApiError;
  /** Advice replacing the class's, when the identifier calls for other words. */
  advice?: string;
}

const SUPPORTED_STATUSES = guide('testing.md', 'sandbox-confirm-supported-statuses');

/**
 * One row per identifier of ERROR_CODES (a new identifier does not compile without its row).
 * A row without a class takes its documented status's: NOT_FOUND is a NotFoundError because
 * ERROR_CODES says 404, not because this table says so again.
 */
export const ERROR_ROWS: { readonly [C in ApiErrorCode]: ErrorRow } = {
  NOT_FOUND: {},
  VALIDATION_ERROR: {},
  TYPE_MISMATCH: {
    class: TypeMismatchError,
    advice:
      'Use sandbox.confirmPayIn() for PayIn transactions and sandbox.confirmPayOut() for PayOut transactions.',
  },
  ALREADY_FINAL: {
    class: AlreadyFinalError,
    advice:
      'The transaction is already in a different final status and cannot change; read it with client.transactions.get().',
  },
  STATUS_NOT_SUPPORTED: {
    class: StatusNotSupportedError,
    advice: `This payment method does not support that status in sandbox confirm; see the supported-status table: ${SUPPORTED_STATUSES}.`,
  },
  CONFIRM_FAILED: {
    class: ConfirmFailedError,
    advice: 'The sandbox status update failed on the service; calling confirm again is safe.',
  },
  UNAUTHORIZED: {},
  METHOD_NOT_ALLOWED: {},
  DUPLICATE_REFERENCE: {
    advice:
      'The reference is already used by this merchant. Look it up with client.transactions.get(reference): if it is this payment, it exists and must not be created again; if it is another, choose a new reference for this one.',
  },
  INSUFFICIENT_FUNDS: {
    advice:
      'The merchant balance does not cover this amount. Check client.merchant.getBalance() (in the sandbox, fund it with an approved PayIn), then create it again with the same reference.',
  },
  UNSUPPORTED_MEDIA_TYPE: {},
  BODY_TOO_DEEP: {},
  PAYLOAD_TOO_LARGE: {},
  MISDIRECTED_REQUEST: {},
  INTERNAL_ERROR: {},
  NO_WEBHOOK: {},
};

/**
 * The class and advice of a refusal by its identifier. An identifier the guide documents is a
 * stronger statement than the HTTP status it came with, so it picks the class; the simulator's
 * own identifiers refine only the advice (the service may send the same word with another status).
 */
export function classifyByCode(errorCode: string | undefined): ErrorChoice | undefined {
  // Own keys only: an identifier of 'constructor' or 'toString' is no row.
  if (errorCode === undefined || !Object.hasOwn(ERROR_ROWS, errorCode)) return undefined;
  const code = errorCode as ApiErrorCode;
  const row = ERROR_ROWS[code];
  const documented = ERROR_CODES[code];
  const ErrorClass =
    row.class ?? (documented.source === 'guide' ? classForStatus(documented.status) : undefined);
  return { ErrorClass, advice: row.advice };
}

/**
 * A 404 on a sandbox operation. Production has no sandbox endpoints and answers every sandbox
 * confirm 404 NOT_FOUND (spec "Environments", "Errors"), exactly as an unknown transaction_id is
 * answered, so the environment comes first: a client pointed at a production address by mistake
 * is the cause a "check the ticket" hides.
 */
const SANDBOX_NOT_FOUND = `If baseUrl (PAYINOUT_BASE_URL) is a production address, it has no sandbox endpoints: use the staging or UAT root. Otherwise transaction_id is not this merchant's (ticket, Bre-B key, cash reference or CLABE): ${SUPPORTED_STATUSES}`;

const SERVICE: ErrorClassifier = (refusal) => classifyByCode(refusal.errorCode);
const SANDBOX: ErrorClassifier = (refusal) => {
  const choice = classifyByCode(refusal.errorCode);
  return refusal.status === 404 ? { ...choice, advice: SANDBOX_NOT_FOUND } : choice;
};

/** The classifier of one operation's refusals (the table's `sandboxOnly` adds the environment advice). */
export function errorsOf(operation: { sandboxOnly: boolean }): ErrorClassifier {
  return operation.sandboxOnly ? SANDBOX : SERVICE;
}

/**
 * The error the SDK would raise for this refusal: the class of its documented identifier, else of
 * its HTTP status, with the advice of its row (and of its operation, found by its path).
 * @deprecated The SDK builds its errors itself; to tell refusals apart, catch the classes
 * (`instanceof AlreadyFinalError`) or read `error.errorCode`. Kept for code written against 0.3.
 */
export function createApiError(init: ApiErrorInit): ApiError {
  // Every sandbox operation has a fixed path: its template is the path a call sends.
  const sandboxOnly = OPERATION_LIST.some(
    (operation) => operation.sandboxOnly && operation.template === init.path,
  );
  return createByClassifier(init, errorsOf({ sandboxOnly }));
}
