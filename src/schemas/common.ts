/** Pieces shared by the request and response schemas. */
import * as z from 'zod';
import {
  COUNTRIES,
  COUNTRY_CODES,
  type CountryCode,
  CURRENCY_CODES,
  type TRANSACTION_STATUSES,
} from './catalog.js';
import { type OpenEnum, responseSchema } from './kit.js';

export const CountrySchema = z.enum(COUNTRY_CODES);
export const CurrencySchema = z.enum(CURRENCY_CODES);
export type Country = z.infer<typeof CountrySchema>;
export type Currency = z.infer<typeof CurrencySchema>;

/** A transaction status as read from the service: one of the six known, or a newer one. */
export type TransactionStatus = OpenEnum<(typeof TRANSACTION_STATUSES)[number]>;

/** Required text field: a non-empty string. */
export const text = () => z.string().trim().min(1, 'must be a non-empty string');

export const AmountSchema = z
  .number({ error: 'must be a number' })
  .refine(Number.isFinite, 'must be a finite number')
  .refine((n) => n > 0, 'must be greater than 0');

export const UrlSchema = z
  .string()
  .refine((value) => /^https?:\/\/[^\s/]+/i.test(value), 'must be an absolute http(s) URL');

/** The common response envelope (spec "Common response envelope"). */
export const EnvelopeSchema = responseSchema((k) =>
  k.object({
    code: z.string().optional(),
    status: k.oneOf(['SUCCESS', 'ERROR']).optional(),
    message: z.string().optional(),
    data: z.unknown().optional(),
    error: z.string().optional(),
  }),
);
export type Envelope = z.infer<typeof EnvelopeSchema.tolerant>;

/** A value the spec types as string but a sample shows as number (customer legal_doc, phone_number). */
export const stringish = () => z.union([z.string(), z.number()]).transform(String);

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
