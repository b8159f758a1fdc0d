/** Pieces shared by the request and response schemas. */
import * as z from 'zod/mini';
import {
  COUNTRIES,
  COUNTRY_CODES,
  type CountryCode,
  CURRENCY_CODES,
  type KnownTransactionStatus,
} from './catalog.js';
import { responseSchema } from './kit.js';
import { segmentProblem } from './path-segment.js';

// The `@__PURE__` marks below let a bundler drop a schema nothing of its bundle reads (PaymentClient
// alone reads none of these three): docs/performance.md, "Package → 0.4".
/** A country code (CO, PE, MX, GT, HN). */
export const CountrySchema = /* @__PURE__ */ z.enum(COUNTRY_CODES);
/** A currency code (COP, PEN, MXN, GTQ, HNL). */
export const CurrencySchema = /* @__PURE__ */ z.enum(CURRENCY_CODES);
/** A country code. */
export type Country = z.infer<typeof CountrySchema>;
/** A currency code. */
export type Currency = z.infer<typeof CurrencySchema>;

/**
 * A transaction status as typed on results: one of the six the spec lists, so `status === 'APPROVD'`
 * is a compile error. At run time a newer status still passes by default (strictResponses refuses it).
 */
export type TransactionStatus = KnownTransactionStatus;

/** Required text field: a non-empty string (surrounding blanks trimmed). */
export const text = () => z.string().check(z.trim(), z.minLength(1, 'must be a non-empty string'));

/**
 * A merchant reference: required text that also reaches the service unchanged as a URL path
 * segment, since the SDK looks it up at GET /api/v1/transaction/{reference} after a lost answer.
 * Refused before the create is sent, not when the lookup is due.
 */
export const referenceText = () =>
  text().check(
    z.refine(
      // An empty reference already has its one issue (must be a non-empty string).
      (value) => value === '' || segmentProblem(value) === undefined,
      'cannot be "." or ".." nor hold a lone surrogate: the SDK looks references up in a URL path, which cannot carry them',
    ),
  );

/** A request amount: a finite number above zero. */
export const AmountSchema = z.number().check(
  z.refine(Number.isFinite, 'must be a finite number'),
  z.refine((n) => n > 0, 'must be greater than 0'),
);

/**
 * Why an amount cannot be sent exactly, or undefined when it can: above 2^53 − 1 a number has lost
 * digits, exponent notation (1e21, 1e-7) is not a plain decimal, and digits finer than the
 * currency's minor unit cannot be paid (0.1 + 0.2 serialises as 0.30000000000000004).
 */
export function inexactAmount(amount: number, decimals: number): string | undefined {
  // A whole number up to 2^53 − 1 is exact in every currency, and its text is plain digits: the
  // common case (COP, amounts in whole units) needs no text at all.
  if (Number.isSafeInteger(amount)) return undefined;
  if (amount > Number.MAX_SAFE_INTEGER) return 'must be at most 9007199254740991 to be sent exactly';
  const text = String(amount);
  if (/e/i.test(text)) return `must be a plain decimal number (${text} is in exponent notation)`;
  const fraction = text.split('.')[1] ?? '';
  if (fraction.length > decimals) {
    return decimals === 0
      ? 'must be a whole number'
      : `must have at most ${decimals} decimal places (the currency's minor unit)`;
  }
  return undefined;
}

/** A request amount in a currency with `decimals` minor-unit digits (0: whole numbers only). */
export const exactAmount = (decimals: number) =>
  AmountSchema.check(
    refinement<number>((amount, found) => {
      const why = Number.isFinite(amount) && amount > 0 ? inexactAmount(amount, decimals) : undefined;
      if (why) issue(found, undefined, why);
    }),
  );
export const UrlSchema = z
  .string()
  .check(z.refine((value) => /^https?:\/\/[^\s/]+/i.test(value), 'must be an absolute http(s) URL'));

/** The common response envelope (spec "Common response envelope"). */
export const EnvelopeSchema = /* @__PURE__ */ responseSchema((k) =>
  k.object({
    code: z.optional(z.string()),
    status: z.optional(k.oneOf(['SUCCESS', 'ERROR'])),
    message: z.optional(z.string()),
    data: z.optional(z.unknown()),
    error: z.optional(z.string()),
  }),
);
/** The common response envelope (`code`, `status`, `message`, `data`, `error`). */
export type Envelope = z.infer<typeof EnvelopeSchema.tolerant>;

/** A value the spec types as string but a sample shows as number (customer legal_doc, phone_number). */
export const stringish = () => z.pipe(z.union([z.string(), z.number()]), z.transform(String));

/**
 * A request text field that a JavaScript caller (a CSV import) may hand over as a number: a whole,
 * non-negative, exactly representable number is sent as its decimal string; NaN, 1.5 or 1e21 are
 * refused. Typed as string: a document or phone number kept as a number loses its leading zeros.
 */
export const digitsText = (): z.ZodMiniType<string, string> =>
  z.pipe(
    z.union([
      z.string(),
      z.pipe(
        z
          .number()
          .check(
            z.refine(
              (n) => Number.isSafeInteger(n) && n >= 0,
              'must be a string (a number is accepted only when whole, non-negative and at most 2^53 − 1)',
            ),
          ),
        z.transform(String),
      ),
    ]),
    text(),
  ) as unknown as z.ZodMiniType<string, string>;

/**
 * A customer as the service sends it back: the lookup's `customer` and the webhook's `top_user`
 * (legal_doc_type, legal_doc, phone_code, phone_number, email, full_name). All strings in the
 * guide, numbers in a sample: numbers are read as strings; any field may be absent or null.
 */
export const CustomerRecordSchema = responseSchema((k) =>
  k.object({
    legal_doc_type: z.nullish(z.string()),
    legal_doc: z.nullish(stringish()),
    phone_code: z.nullish(stringish()),
    phone_number: z.nullish(stringish()),
    email: z.nullish(z.string()),
    full_name: z.nullish(z.string()),
  }),
);

/** A customer as read back from the service (see {@link CustomerRecordSchema}). */
export type CustomerRecord = z.infer<typeof CustomerRecordSchema.tolerant>;

/** zod's parse payload at a check: the value, and the issues found so far. */
export type Found = z.core.ParsePayload<unknown>;

/**
 * A refinement that reports its own issues on their own paths, as `z.superRefine` does, made once
 * per schema: zod's superRefine makes a new `addIssue` closure on every parse, and request
 * validation runs on every call (docs/performance.md, "0.4: per-call cost").
 */
export function refinement<T>(
  rule: (value: T, found: Found) => void,
  params?: z.core.$ZodCustomParams,
): z.core.$ZodCheck<T> {
  return z.check<T>((payload) => rule(payload.value, payload as Found), params);
}

/**
 * The issue superRefine's `ctx.addIssue({ code: 'custom', path, message })` reports (without a
 * path: on the value itself, where zod puts it).
 */
export function issue(found: Found, path: (string | number)[] | undefined, message: string): void {
  // `continue: true`: later checks still run, as after addIssue (an issue without it aborts them).
  const input = found.value;
  found.issues.push(
    path
      ? { code: 'custom', path, message, input, continue: true }
      : { code: 'custom', message, input, continue: true },
  );
}

/** country ↔ currency pairing (spec: "Must match merchant country and currency"). */
export function checkCountryCurrency(found: Found, country: CountryCode, currency: string): void {
  const expected = COUNTRIES[country].currency;
  if (currency !== expected) issue(found, ['currency'], `must be ${expected} for country ${country}`);
}

/** A zod/mini schema that reads a string and gives a string (a request text field). */
export type TextSchema = z.ZodMiniType<string, string>;

/** An issue message for a field, with "is required" when the field is absent. */
export const orRequired =
  (message: string) =>
  (issue: { input?: unknown }): string =>
    issue.input === undefined ? 'is required' : message;

/**
 * A request field whose values the spec lists (a literal union), or any non-empty string where the
 * spec lists none (`null`: GT/HN methods, MX/GT/HN document types).
 */
export function listed<const T extends readonly [string, ...string[]]>(
  values: T,
  what: string,
): z.ZodMiniType<T[number], T[number]>;
export function listed(values: null, what: string): TextSchema;
export function listed(values: readonly [string, ...string[]] | null, what: string): TextSchema {
  if (!values) return text();
  return z.enum(values, { error: orRequired(`${what}; expected one of ${values.join(', ')}`) });
}

/** A value from a spec list, or any non-empty string where the spec lists none (null). */
export function checkListed(
  found: Found,
  path: (string | number)[],
  value: string,
  allowed: readonly string[] | null,
  what: string,
): void {
  if (allowed && !allowed.includes(value))
    issue(found, path, `${what}; expected one of ${allowed.join(', ')}`);
}
