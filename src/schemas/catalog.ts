/**
 * What the spec states about countries, methods, document and account types
 * (the service guide's "Country reference"). `null` means the spec says "Not shown":
 * the SDK then accepts any non-empty string (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md).
 */

/** ISO 3166-1 alpha-2 codes of the countries the service operates in. */
export const COUNTRY_CODES = ['CO', 'PE', 'MX', 'GT', 'HN'] as const;
/** One of {@link COUNTRY_CODES}. */
export type CountryCode = (typeof COUNTRY_CODES)[number];
/** ISO 4217 codes, one per country (CO/COP, PE/PEN, MX/MXN, GT/GTQ, HN/HNL). */
export const CURRENCY_CODES = ['COP', 'PEN', 'MXN', 'GTQ', 'HNL'] as const;
/** One of {@link CURRENCY_CODES}. */
export type CurrencyCode = (typeof CURRENCY_CODES)[number];

/** What the spec's country table states for one country. */
export interface CountryInfo {
  code: CountryCode;
  name: string;
  currency: CurrencyCode;
  /** PayIn payment_method values; null = not shown by the spec (any value accepted). */
  payinMethods: readonly string[] | null;
  payoutMethods: readonly string[] | null;
  payinDocumentTypes: readonly string[] | null;
  payoutDocumentTypes: readonly string[] | null;
  /** PayOut account_type values. */
  accountTypes: readonly string[] | null;
}

const CO_PAYIN_DOCUMENTS = ['CC', 'CE', 'PPN'] as const;
const PE_DOCUMENTS = ['DNI', 'RUC', 'CE', 'PPN'] as const;
/** Spec "Not shown": any non-empty string is accepted. */
const NOT_SHOWN = { payinDocumentTypes: null, payoutDocumentTypes: null } as const;

/**
 * The country table with its lists as literal tuples: the params types ({@link PayInCreateParams},
 * {@link PayOutCreateParams}) and the request schemas are built from it. Read it as {@link COUNTRIES}.
 */
export const COUNTRY_TABLE = {
  CO: {
    code: 'CO',
    name: 'Colombia',
    currency: 'COP',
    payinMethods: [
      'ALL_METHODS',
      'PSE',
      'TRANSFIYA',
      'EFECTY',
      'CASH',
      'CARD',
      'BREB',
      'BREB_QR',
      'NEQUI_PUSH',
    ],
    payoutMethods: ['BANK_TRANSFER', 'BREB'],
    payinDocumentTypes: CO_PAYIN_DOCUMENTS,
    payoutDocumentTypes: [...CO_PAYIN_DOCUMENTS, 'NIT'],
    accountTypes: ['AHORRO', 'CORRIENTE'],
  },
  PE: {
    code: 'PE',
    name: 'Peru',
    currency: 'PEN',
    payinMethods: ['ALL_METHODS', 'BANK_TRANSFER', 'QR', 'PAGOEFECTIVO', 'CASH', 'CARD'],
    payoutMethods: ['BANK_TRANSFER'],
    payinDocumentTypes: PE_DOCUMENTS,
    payoutDocumentTypes: PE_DOCUMENTS,
    accountTypes: ['AHORRO', 'CORRIENTE', 'WALLET'],
  },
  MX: {
    code: 'MX',
    name: 'Mexico',
    currency: 'MXN',
    payinMethods: ['SPEI'],
    payoutMethods: ['SPEI'],
    ...NOT_SHOWN,
    accountTypes: ['CLABE'],
  },
  GT: {
    code: 'GT',
    name: 'Guatemala',
    currency: 'GTQ',
    payinMethods: null,
    payoutMethods: null,
    ...NOT_SHOWN,
    accountTypes: null,
  },
  HN: {
    code: 'HN',
    name: 'Honduras',
    currency: 'HNL',
    payinMethods: null,
    payoutMethods: null,
    ...NOT_SHOWN,
    accountTypes: null,
  },
} as const satisfies { readonly [C in CountryCode]: CountryInfo & { code: C } };

/**
 * The spec's country table, keyed by country code (the same object as {@link COUNTRY_TABLE},
 * typed with plain string lists so `COUNTRIES[country].payinMethods?.includes(method)` type-checks).
 * @example
 * COUNTRIES.CO.currency;        // 'COP'
 * COUNTRIES.PE.payinMethods;    // ['ALL_METHODS', 'BANK_TRANSFER', 'QR', …]
 * COUNTRIES.GT.payinMethods;    // null: not shown by the spec, any method accepted
 */
export const COUNTRIES: { readonly [C in CountryCode]: CountryInfo } = COUNTRY_TABLE;

/** The values of a catalog list as a union; a list the spec does not show (`null`) is any string. */
export type CatalogValues<L> = L extends readonly (infer T extends string)[] ? T : string;
/** One country's row of {@link COUNTRY_TABLE}, with its literal lists. */
export type CountryEntry<C extends CountryCode> = (typeof COUNTRY_TABLE)[C];

/** The currency of a country: `CurrencyOf<'CO'>` is `'COP'`. */
export type CurrencyOf<C extends CountryCode> = CountryEntry<C>['currency'];
/** PayIn `payment_method` values of a country (any string for GT and HN: not shown by the spec). */
export type PayInMethod<C extends CountryCode = CountryCode> = CatalogValues<CountryEntry<C>['payinMethods']>;
/** PayOut `payment_method` values of a country (any string for GT and HN). */
export type PayOutMethod<C extends CountryCode = CountryCode> = CatalogValues<
  CountryEntry<C>['payoutMethods']
>;
/** PayIn `legal_doc_type` values of a country (any string for MX, GT and HN). */
export type PayInDocumentType<C extends CountryCode = CountryCode> = CatalogValues<
  CountryEntry<C>['payinDocumentTypes']
>;
/** PayOut `legal_doc_type` values of a country (any string for MX, GT and HN). */
export type PayOutDocumentType<C extends CountryCode = CountryCode> = CatalogValues<
  CountryEntry<C>['payoutDocumentTypes']
>;
/** PayOut `account_type` values of a country (any string for GT and HN). */
export type AccountType<C extends CountryCode = CountryCode> = CatalogValues<CountryEntry<C>['accountTypes']>;
/** PSE direct `person_type` values (spec "customer_data (PayIn request)"). */
export const PERSON_TYPES = ['NATURAL', 'JURIDICA'] as const;
/** One of {@link PERSON_TYPES}. */
export type PersonType = (typeof PERSON_TYPES)[number];

/**
 * Decimal places an amount may carry per currency (ISO 4217 minor units). An amount finer than
 * that cannot be paid exactly and is refused before sending (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md).
 */
export const CURRENCY_DECIMALS: { readonly [C in CurrencyCode]: number } = {
  COP: 2,
  PEN: 2,
  MXN: 2,
  GTQ: 2,
  HNL: 2,
};

/** The six transaction statuses of the spec ("States and transitions"). */
export const TRANSACTION_STATUSES = [
  'CREATED',
  'PENDING',
  'APPROVED',
  'REJECTED',
  'DECLINED',
  'EXPIRED',
] as const;
/** One of {@link TRANSACTION_STATUSES}. */
export type KnownTransactionStatus = (typeof TRANSACTION_STATUSES)[number];
/** Statuses after which a transaction never changes (see {@link isFinalStatus}). */
export const FINAL_STATUSES = ['APPROVED', 'REJECTED', 'DECLINED', 'EXPIRED'] as const;

/** One of {@link FINAL_STATUSES}. */
export type FinalStatus = (typeof FINAL_STATUSES)[number];

/**
 * True for APPROVED, REJECTED, DECLINED and EXPIRED; false for CREATED, PENDING and unknown values.
 * A type guard: inside `if (isFinalStatus(tx.status))` the status is a {@link FinalStatus}.
 */
export function isFinalStatus(status: string | null | undefined): status is FinalStatus {
  return (FINAL_STATUSES as readonly (string | null | undefined)[]).includes(status);
}

/**
 * Every `error` identifier an error answer carries, once, with the HTTP status it comes with:
 * the ones the guide documents ("Errors") and the ones the simulator adds where the spec is silent
 * (node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md). Read by `KNOWN_ERROR_CODES` and `ApiErrorCode`, the error classes chosen
 * per identifier (core/errors.ts), the table's documented errors (api/operations.ts) and the
 * simulator's answers (testing/reply.ts), so none of them can name an identifier or a status
 * this table does not hold.
 */
export const ERROR_CODES = {
  NOT_FOUND: { status: 404, source: 'guide' },
  VALIDATION_ERROR: { status: 422, source: 'guide' },
  TYPE_MISMATCH: { status: 422, source: 'guide' },
  ALREADY_FINAL: { status: 422, source: 'guide' },
  STATUS_NOT_SUPPORTED: { status: 422, source: 'guide' },
  CONFIRM_FAILED: { status: 500, source: 'guide' },
  UNAUTHORIZED: { status: 401, source: 'simulator' },
  METHOD_NOT_ALLOWED: { status: 405, source: 'simulator' },
  DUPLICATE_REFERENCE: { status: 422, source: 'simulator' },
  INSUFFICIENT_FUNDS: { status: 422, source: 'simulator' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, source: 'simulator' },
  BODY_TOO_DEEP: { status: 400, source: 'simulator' },
  PAYLOAD_TOO_LARGE: { status: 413, source: 'simulator' },
  /** A request addressed to another Host than the loopback simulator it reached. */
  MISDIRECTED_REQUEST: { status: 421, source: 'simulator' },
  /** The simulator itself failed on a request (a bug to report). */
  INTERNAL_ERROR: { status: 500, source: 'simulator' },
  /** The sandbox dashboard's "resend webhook" on a transaction that has had none. */
  NO_WEBHOOK: { status: 409, source: 'simulator' },
} as const satisfies Record<string, { status: number; source: 'guide' | 'simulator' }>;

/** The `error` identifiers of {@link ERROR_CODES}. `ApiError.errorCode` is typed with these. */
// `@__PURE__`: a bundler drops the list where nothing reads it (the client only types with it).
export const KNOWN_ERROR_CODES = /* @__PURE__ */ Object.keys(ERROR_CODES) as readonly ApiErrorCode[];

/**
 * An `error` identifier of an error answer, as typed on `ApiError.errorCode`.
 *
 * Deliberately a closed union: `error.errorCode === 'ALREADY_FINALL'` is a compile error. An open
 * form (`KnownErrorCode | (string & {})`) would accept every typo, since any string literal is
 * comparable to `string`. At run time the SDK still keeps an identifier it does not know yet as
 * the service sent it (errors are never dropped or renamed): handle it in a `default:` branch, or
 * tell known from new ones with {@link isKnownErrorCode}.
 */
export type ApiErrorCode = keyof typeof ERROR_CODES;

/** Whether an identifier is one of {@link KNOWN_ERROR_CODES} (false for a newer one). */
export function isKnownErrorCode(code: unknown): code is ApiErrorCode {
  return (KNOWN_ERROR_CODES as readonly unknown[]).includes(code);
}

/** The statuses sandbox confirm can set. */
export const SANDBOX_CONFIRM_STATUSES = ['APPROVED', 'REJECTED', 'EXPIRED'] as const;
/** One of {@link SANDBOX_CONFIRM_STATUSES}. */
export type SandboxConfirmStatus = (typeof SANDBOX_CONFIRM_STATUSES)[number];

/** Spec "Supported statuses" tables for sandbox confirm, keyed by payment_method. */
export const SANDBOX_CONFIRM_SUPPORT = {
  payin: {
    BREB: ['APPROVED', 'REJECTED'],
    BREB_QR: ['APPROVED', 'REJECTED'],
    EFECTY: ['APPROVED'],
    QR: ['APPROVED', 'REJECTED', 'EXPIRED'],
    SPEI: ['APPROVED'],
  },
  payout: {
    BANK_TRANSFER: ['APPROVED', 'REJECTED', 'EXPIRED'],
    SPEI: ['APPROVED', 'REJECTED', 'EXPIRED'],
  },
} as const satisfies Record<'payin' | 'payout', Record<string, readonly SandboxConfirmStatus[]>>;

/** PayIn methods the spec says sandbox confirm cannot drive, with how to test them instead. */
export const SANDBOX_CONFIRM_UNSUPPORTED_PAYIN: Readonly<Record<string, string>> = {
  CARD: 'the result of a sandbox CARD payment is fixed by the test card number',
  PSE: 'create the PSE PayIn with the sandbox bank "Banka" and complete the normal flow',
  NEQUI_PUSH: 'the sandbox simulates the Nequi push automatically after creation',
};

/** Limits the spec states (for the legacy PayIn; no currency given). */
export const LEGACY_PAYIN_LIMITS = { minimum: { PSE: 2_000, EFECTY: 10_000 }, maximum: 2_000_000 } as const;

/**
 * Mexican CLABE: 18 digits; the last is a check digit over the first 17 with weights
 * 3, 7, 1 repeating: sum of (digit × weight) mod 10, check = (10 − sum mod 10) mod 10.
 */
export function isValidClabe(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{18}$/.test(value)) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(value[i]) * weights[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10 === Number(value[17]);
}
