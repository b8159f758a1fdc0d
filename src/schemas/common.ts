/** Pieces shared by the request and response schemas. */
import * as z from 'zod/mini';
import {
  COUNTRIES,
  COUNTRY_CODES,
  type CountryCode,
  CURRENCY_CODES,
  type TRANSACTION_STATUSES,
} from './catalog.js';
import { type OpenEnum, responseSchema } from './kit.js';

/** A country code (CO, PE, MX, GT, HN). */
export const CountrySchema = z.enum(COUNTRY_CODES);
/** A currency code (COP, PEN, MXN, GTQ, HNL). */
export const CurrencySchema = z.enum(CURRENCY_CODES);
/** A country code. */
export type Country = z.infer<typeof CountrySchema>;
/** A currency code. */
export type Currency = z.infer<typeof CurrencySchema>;

/** A transaction status as read from the service: one of the six known, or a newer one. */
export type TransactionStatus = OpenEnum<(typeof TRANSACTION_STATUSES)[number]>;

/** Required text field: a non-empty string (surrounding blanks trimmed). */
export const text = () => z.string().check(z.trim(), z.minLength(1, 'must be a non-empty string'));

/** A request amount: a finite number above zero. */
export const AmountSchema = z.number().check(
  z.refine(Number.isFinite, 'must be a finite number'),
  z.refine((n) => n > 0, 'must be greater than 0'),
);

export const UrlSchema = z
  .string()
  .check(z.refine((value) => /^https?:\/\/[^\s/]+/i.test(value), 'must be an absolute http(s) URL'));

/** The common response envelope (spec "Common response envelope"). */
export const EnvelopeSchema = responseSchema((k) =>
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

type Ctx = z.core.$RefinementCtx<unknown>;

export function issue(ctx: Ctx, path: (string | number)[], message: string): void {
  ctx.addIssue({ code: 'custom', path, message });
}

/** country ↔ currency pairing (spec: "Must match merchant country and currency"). */
export function checkCountryCurrency(ctx: Ctx, country: CountryCode, currency: string): void {
  const expected = COUNTRIES[country].currency;
  if (currency !== expected) issue(ctx, ['currency'], `must be ${expected} for country ${country}`);
}

/** A value from a spec list, or any non-empty string where the spec lists none (null). */
export function checkListed(
  ctx: Ctx,
  path: (string | number)[],
  value: string,
  allowed: readonly string[] | null,
  what: string,
): void {
  if (allowed && !allowed.includes(value)) issue(ctx, path, `${what}; expected one of ${allowed.join(', ')}`);
}
