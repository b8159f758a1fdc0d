/** PayIn (collections): POST /api/v2/payin, legacy POST /api/v1/payin, GET /api/v1/pse/banks. */
import * as z from 'zod/mini';
import { COUNTRIES, LEGACY_PAYIN_LIMITS } from './catalog.js';
import {
  AmountSchema,
  CountrySchema,
  CurrencySchema,
  checkCountryCurrency,
  checkListed,
  issue,
  text,
  UrlSchema,
} from './common.js';
import { responseSchema } from './kit.js';

/** The customer fields PayIn and PayOut share (spec "customer_data"). */
export const customerFields = {
  legal_doc: text(),
  legal_doc_type: text(),
  phone_code: z
    .string()
    .check(z.regex(/^\d{1,4}$/, "must be the dialling code digits without '+', e.g. '57'")),
  phone_number: text().check(
    z.refine((v) => !v.startsWith('+'), 'must be the number without the country code'),
  ),
  email: z.string().check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address')),
  full_name: text(),
};

/** customer_data of a PayIn request (spec "customer_data (PayIn request)"). */
export const PayInCustomerSchema = z.looseObject({
  ...customerFields,
  /** PSE direct only: a bank code from client.payin.listPseBanks(). Goes with person_type. */
  bank: z.optional(text()),
  /** PSE direct only. Goes with bank. */
  person_type: z.optional(z.enum(['NATURAL', 'JURIDICA'])),
});

const payInFields = {
  reference: text(),
  amount: AmountSchema,
  currency: CurrencySchema,
  country: CountrySchema,
  payment_method: text(),
  description: text(),
  customer_data: PayInCustomerSchema,
  /** Payment link validity in minutes. */
  expiration_time: z.optional(z.number().check(z.int('must be a whole number of minutes'), z.positive())),
  ipn_url: z.optional(UrlSchema),
  redirect_url: z.optional(UrlSchema),
};

type PayInLike = { country: z.infer<typeof CountrySchema>; currency: string; payment_method: string } & {
  customer_data: z.infer<typeof PayInCustomerSchema>;
};

function checkPayIn(value: PayInLike, ctx: z.core.$RefinementCtx<unknown>): void {
  const info = COUNTRIES[value.country];
  checkCountryCurrency(ctx, value.country, value.currency);
  checkListed(
    ctx,
    ['payment_method'],
    value.payment_method,
    info.payinMethods,
    `is not a PayIn method in ${value.country}`,
  );
  const customer = value.customer_data;
  checkListed(
    ctx,
    ['customer_data', 'legal_doc_type'],
    customer.legal_doc_type,
    info.payinDocumentTypes,
    `is not a PayIn document type in ${value.country}`,
  );
  // PSE direct needs both bank and person_type; neither means a checkout PayIn.
  const hasBank = customer.bank !== undefined;
  const hasPersonType = customer.person_type !== undefined;
  if (hasBank !== hasPersonType) {
    const missing = hasBank ? 'person_type' : 'bank';
    issue(ctx, ['customer_data', missing], 'is required: PSE direct needs both bank and person_type');
  }
  if ((hasBank || hasPersonType) && value.payment_method !== 'PSE') {
    issue(
      ctx,
      ['customer_data', hasBank ? 'bank' : 'person_type'],
      'is only for PSE direct (payment_method PSE)',
    );
  }
}

/** The body of POST /api/v2/payin, with the spec's cross-field rules (country ↔ currency, method and document type per country, PSE direct pairing). */
export const PayInCreateParamsSchema = z.looseObject(payInFields).check(z.superRefine(checkPayIn));
/**
 * What `client.payin.create()` takes.
 * @example
 * const params: PayInCreateParams = { reference: 'order-1001', amount: 50_000, currency: 'COP', country: 'CO',
 *   payment_method: 'PSE', description: 'Order 1001', customer_data: { legal_doc: '1020304050', legal_doc_type: 'CC',
 *   phone_code: '57', phone_number: '3001234567', email: 'ana@example.com', full_name: 'Ana Gómez' } };
 */
export type PayInCreateParams = z.input<typeof PayInCreateParamsSchema>;

/** The deprecated v1 PayIn: integer amount, CO/PE only, redirect_url and ipn_url required. */
export const PayInLegacyCreateParamsSchema = z
  .looseObject({
    ...payInFields,
    amount: AmountSchema.check(z.refine(Number.isInteger, 'must be a whole number for the legacy PayIn')),
    currency: z.enum(['COP', 'PEN']),
    country: z.enum(['CO', 'PE']),
    description: z.optional(text()),
    redirect_url: UrlSchema,
    ipn_url: UrlSchema,
  })
  .check(
    z.superRefine((value, ctx) => {
      checkPayIn(value, ctx);
      const minimum = (LEGACY_PAYIN_LIMITS.minimum as Record<string, number>)[value.payment_method];
      if (minimum !== undefined && value.amount < minimum) {
        issue(ctx, ['amount'], `must be at least ${minimum} for ${value.payment_method}`);
      }
      if (value.amount > LEGACY_PAYIN_LIMITS.maximum) {
        issue(ctx, ['amount'], `must be at most ${LEGACY_PAYIN_LIMITS.maximum}`);
      }
    }),
  );
/** What the deprecated `client.payin.createLegacy()` takes. */
export type PayInLegacyCreateParams = z.input<typeof PayInLegacyCreateParamsSchema>;

/** data of a PayIn creation (spec "PayIn creation result"). */
export const PayInCreatedSchema = responseSchema((k) =>
  k.object({
    ticket: z.string(),
    date: z.string(),
    /** Hosted checkout URL (Checkout or Hybrid methods). */
    payment_url: z.optional(z.string()),
    /** Provider payment data (Direct or Hybrid methods): Bre-B key, cash reference, CLABE… Shape not shown by the spec. */
    payment_information: z.optional(z.record(z.string(), z.unknown())),
    transaction: k.object({
      reference: z.string(),
      amount: k.amount,
      currency: z.string(),
      payment_method: z.string(),
      redirect_url: z.optional(z.string()),
      ipn_url: z.optional(z.string()),
      description: z.optional(z.string()),
    }),
  }),
);
/** The result of a PayIn creation: `ticket`, `date`, `payment_url?`, `payment_information?`, `transaction`. */
export type PayInCreated = z.infer<typeof PayInCreatedSchema.tolerant>;

/**
 * One PSE bank. The spec does not show the response of GET /api/v1/pse/banks; the SDK
 * reads `code`/`name` and the aliases listed in docs/spec-gaps.md, and keeps every key.
 */
export const PseBankSchema = responseSchema((k) =>
  z.pipe(
    z.transform((raw: unknown) => {
      if (raw === null || typeof raw !== 'object') return raw;
      const bank = raw as Record<string, unknown>;
      const code =
        bank.code ?? bank.bank_code ?? bank.financial_institution_code ?? bank.financialInstitutionCode;
      const name =
        bank.name ?? bank.bank_name ?? bank.financial_institution_name ?? bank.financialInstitutionName;
      return { ...bank, code: code === undefined ? code : String(code), name };
    }),
    k.object({ code: z.string(), name: z.string() }),
  ),
);
/** One bank of `client.payin.listPseBanks()`: `code` (for `customer_data.bank`) and `name`. */
export type PseBank = z.infer<typeof PseBankSchema.tolerant>;

/** The list may come as the envelope's data array or under a key of it (not shown by the spec). */
export const PseBankListSchema = responseSchema((k) =>
  z.pipe(
    z.transform((raw: unknown) => {
      if (Array.isArray(raw) || raw === null || typeof raw !== 'object') return raw;
      const record = raw as Record<string, unknown>;
      return record.banks ?? record.data ?? record.items ?? raw;
    }),
    z.array(k.strict ? PseBankSchema.strict() : PseBankSchema.tolerant),
  ),
);
