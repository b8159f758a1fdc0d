/**
 * What the OpenAPI document says of each operation of the table (src/api/operations.ts) in words:
 * the guide's section, a summary, and the errors the guide documents with when each comes. Only
 * the document reads them, so they live beside its builder: the client carries the table's rules
 * (paths, schemas, what may be resent, recovery), not its documentation (docs/performance.md,
 * "Package → 0.4"). Keyed by the operation ids, so an operation without its texts does not compile.
 */
import type { OperationId } from '../api/operations.js';
import type { DocumentedError } from '../api/types.js';
import { type ApiErrorCode, ERROR_CODES } from '../schemas/catalog.js';

export interface OperationText {
  /** The guide's section that describes the operation. */
  section: string;
  summary: string;
  /** The errors the guide documents for the operation (most are "Not shown"), and when each comes (guide "Errors"). */
  errors?: Readonly<Partial<Record<ApiErrorCode, string>>>;
  /** Those of `errors` whose body holds only `error` (sandbox confirm's 404). */
  bare?: readonly ApiErrorCode[];
}

const CONFIRM_SECTION = 'POST /api/v1/sandbox/payin/confirm and POST /api/v1/sandbox/payout/confirm';

/** Guide "Errors", sandbox confirm table. */
const CONFIRM_ERRORS = {
  NOT_FOUND: "transaction_id unknown, another merchant's transaction, or production",
  VALIDATION_ERROR: 'invalid body',
  TYPE_MISMATCH: 'PayIn confirm used on a PayOut, or the reverse',
  ALREADY_FINAL: 'the transaction is already in a different final status',
  STATUS_NOT_SUPPORTED: 'the status is not valid for the payment method',
  CONFIRM_FAILED: 'the status update failed',
} as const;

export const OPERATION_TEXTS: { readonly [Id in OperationId]: OperationText } = {
  'payin.create': {
    section: 'POST /api/v2/payin',
    summary: 'Create a PayIn (recommended)',
  },
  'payin.createLegacy': {
    section: 'POST /api/v1/payin (legacy, deprecated)',
    summary: 'Create a PayIn with the legacy v1 endpoint',
  },
  'payin.listPseBanks': {
    section: 'GET /api/v1/pse/banks',
    summary: 'List the bank codes for PSE direct PayIns',
  },
  'payout.create': {
    section: 'POST /api/v1/payout (create PayOut)',
    summary: 'Create a PayOut (initial status PENDING)',
  },
  'merchant.getProfile': {
    section: 'GET /api/v1/merchant/me',
    summary: "The merchant's registered name, tax ID, e-mail, currency and wallet",
  },
  'merchant.getBalance': {
    section: 'GET /api/v1/merchant/balance',
    summary: "The merchant's balance, raw and formatted",
  },
  'transactions.get': {
    section: 'GET /api/v1/transaction/{ticket} (search transaction)',
    summary: 'Look a PayIn or PayOut up by service ticket or merchant reference',
  },
  'transactions.getByPost': {
    section: 'GET /api/v1/transaction/{ticket} (search transaction)',
    summary: 'Look a transaction up, POST form (body { ticket })',
  },
  'sandbox.confirmPayIn': {
    section: CONFIRM_SECTION,
    summary: 'Force a pending PayIn to a final status and send its webhook (staging and UAT)',
    errors: CONFIRM_ERRORS,
    bare: ['NOT_FOUND'],
  },
  'sandbox.confirmPayOut': {
    section: CONFIRM_SECTION,
    summary: 'Force a PayOut waiting for the bank to a final status and send its webhook (staging and UAT)',
    errors: CONFIRM_ERRORS,
    bare: ['NOT_FOUND'],
  },
};

/** The texts of an operation of the table (their keys are its ids, so every one has them). */
export function textOf(id: string): OperationText {
  const text = (OPERATION_TEXTS as Readonly<Record<string, OperationText | undefined>>)[id];
  if (!text) throw new Error(`src/openapi/operation-texts.ts has no texts for the operation ${id}.`);
  return text;
}

/**
 * The errors the guide documents for an operation, in the guide's order, each with its status
 * from the one table of identifiers (ERROR_CODES).
 */
export function documentedErrors(id: string): DocumentedError[] {
  const { errors = {}, bare = [] } = textOf(id);
  return (Object.keys(errors) as ApiErrorCode[]).map((error) => ({
    status: ERROR_CODES[error].status,
    error,
    ...(bare.includes(error) && { bare: true }),
  }));
}

/** When an operation answers one of its documented errors, in the guide's words. */
export function whenOf(id: string, error: ApiErrorCode): string {
  const when = textOf(id).errors?.[error];
  if (!when) throw new Error(`src/openapi/operation-texts.ts does not say when ${id} answers ${error}.`);
  return when;
}
