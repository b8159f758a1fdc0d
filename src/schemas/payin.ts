/** PayIn (collections): POST /api/v2/payin, legacy POST /api/v1/payin, GET /api/v1/pse/banks. */
import * as z from 'zod/mini';
import {
  COUNTRY_TABLE as COUNTRIES,
  type CountryCode,
  CURRENCY_DECIMALS,
  type CurrencyOf,
  LEGACY_PAYIN_LIMITS,
  PERSON_TYPES,
  type PersonType,
} from './catalog.js';
import {
  digitsText,
  exactAmount,
  type Found,
  issue,
  listed,
  orRequired,
  referenceText,
  refinement,
  type TextSchema,
  text,
  UrlSchema,
} from './common.js';

/** The customer fields PayIn and PayOut share (spec "customer_data"). */
export const customerFields = {
  /** Document number. A number given from JavaScript (a CSV import) is sent as its decimal string. */
  legal_doc: digitsText(),
  /** Document type: one of the country's list (`COUNTRIES[country]`); any non-empty string for MX, GT and HN. */
  legal_doc_type: text(),
  /** Country dialling code, digits without '+', e.g. '57'. */
  phone_code: z
    .string()
    .check(z.regex(/^\d{1,4}$/, "must be the dialling code digits without '+', e.g. '57'")),
  /** Phone number without the country code. A number given from JavaScript is sent as its decimal string. */
  phone_number: digitsText().check(
    z.refine((v) => !v.startsWith('+'), 'must be the number without the country code'),
  ),
  /** Customer e-mail. In staging, PSE's designated test address gives an approved result. */
  email: z.string().check(z.regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an e-mail address')),
  /** Name as on official documents. */
  full_name: text(),
};

const customerObject = <D extends TextSchema>(legal_doc_type: D) =>
  z.strictObject({ ...customerFields, legal_doc_type });
type Customer<D extends TextSchema> = z.output<ReturnType<typeof customerObject<D>>>;
/** No PSE direct fields (only Colombia has PSE); readable as undefined on any PayIn. */
export type NoPseDirect = { bank?: undefined; person_type?: undefined };

/** The customer of a PayIn whose document types the country lists (or any string: MX, GT, HN). */
const payInCustomer = <D extends TextSchema>(legal_doc_type: D) =>
  customerObject(legal_doc_type) as unknown as z.ZodMiniType<
    Customer<D> & NoPseDirect,
    Customer<D> & NoPseDirect
  >;

/** customer_data of a PayIn request (spec "customer_data (PayIn request)"), any country. */
export const PayInCustomerSchema = z.strictObject({
  ...customerFields,
  /** PSE direct only: a bank code from `client.payin.listPseBanks()`. Goes with person_type. */
  bank: z.optional(text()),
  /** PSE direct only: NATURAL or JURIDICA. Goes with bank. */
  person_type: z.optional(z.enum(PERSON_TYPES)),
});

/**
 * PSE direct sends `bank` and `person_type` together; neither makes a checkout PayIn. Typed so that
 * one without the other does not compile; the same rule is checked at run time for JavaScript callers.
 */
export type PseDirectPair = NoPseDirect | { bank: string; person_type: PersonType };

/** Colombia's customer: the PayIn document types, and the PSE direct pair. */
const coCustomer = z
  .strictObject({
    ...PayInCustomerSchema.def.shape,
    legal_doc_type: listed(COUNTRIES.CO.payinDocumentTypes, 'is not a PayIn document type in CO'),
  })
  .check(
    refinement((customer, found) => {
      if ((customer.bank === undefined) !== (customer.person_type === undefined)) {
        const missing = customer.bank === undefined ? 'bank' : 'person_type';
        issue(found, [missing], 'is required: PSE direct needs both bank and person_type');
      }
    }),
  ) as unknown as z.ZodMiniType<
  Customer<z.ZodMiniType<PayInDocCO, PayInDocCO>> & PseDirectPair,
  Customer<z.ZodMiniType<PayInDocCO, PayInDocCO>> & PseDirectPair
>;
type PayInDocCO = (typeof COUNTRIES.CO.payinDocumentTypes)[number];

/** The fields of a PayIn for one country: currency, amount precision, methods and customer follow it. */
function payInShape<C extends CountryCode, M extends TextSchema, K extends z.ZodMiniType>(
  country: C,
  payment_method: M,
  customer_data: K,
) {
  const currency = COUNTRIES[country].currency as CurrencyOf<C>;
  return {
    /** Your unique reference for this PayIn; the SDK looks it up after a lost answer, before any resend. */
    reference: referenceText(),
    /**
     * Amount to collect in the currency's units, not minor units (spec: "in the given currency"):
     * 150000 with COP is COP 150.000. At most 2 decimals; a value that cannot be sent exactly is
     * refused before sending.
     */
    amount: exactAmount(CURRENCY_DECIMALS[currency]),
    /** The country's currency (CO COP, PE PEN, MX MXN, GT GTQ, HN HNL); must be the merchant's. */
    currency: z.literal(currency, { error: orRequired(`must be ${currency} for country ${country}`) }),
    /** ISO 3166-1 alpha-2 country: CO, PE, MX, GT or HN; must be the merchant's. */
    country: z.literal(country),
    /** How the customer pays: one of the country's PayIn methods (any name for GT and HN). */
    payment_method,
    /** Purpose of the transaction, shown to the customer. */
    description: text(),
    /** The paying customer; `bank` and `person_type` only for PSE direct (Colombia). */
    customer_data,
    /** Payment link validity in minutes. */
    expiration_time: z.optional(z.number().check(z.int('must be a whole number of minutes'), z.positive())),
    /** Your webhook receiver; without it no webhook is sent for this PayIn. */
    ipn_url: z.optional(UrlSchema),
    /** Where the customer returns after a hosted checkout. */
    redirect_url: z.optional(UrlSchema),
  };
}

const method = (country: 'CO' | 'PE' | 'MX') => `is not a PayIn method in ${country}` as const;
const doc = (country: 'CO' | 'PE') => `is not a PayIn document type in ${country}` as const;
const PAYIN_SHAPES = {
  CO: payInShape('CO', listed(COUNTRIES.CO.payinMethods, method('CO')), coCustomer),
  PE: payInShape(
    'PE',
    listed(COUNTRIES.PE.payinMethods, method('PE')),
    payInCustomer(listed(COUNTRIES.PE.payinDocumentTypes, doc('PE'))),
  ),
  MX: payInShape('MX', listed(COUNTRIES.MX.payinMethods, method('MX')), payInCustomer(text())),
  GT: payInShape('GT', text(), payInCustomer(text())),
  HN: payInShape('HN', text(), payInCustomer(text())),
};

/** PSE direct fields belong to a PSE PayIn (a PayIn with another method must not carry them). */
function checkPayIn(
  value: { payment_method: string; customer_data: { bank?: unknown; person_type?: unknown } },
  found: Found,
): void {
  const { bank, person_type } = value.customer_data;
  if ((bank !== undefined || person_type !== undefined) && value.payment_method !== 'PSE') {
    issue(
      found,
      ['customer_data', bank !== undefined ? 'bank' : 'person_type'],
      'is only for PSE direct (payment_method PSE)',
    );
  }
}

/**
 * The body of POST /api/v2/payin, discriminated by `country`: currency, amount precision, methods,
 * document types and the PSE direct pair follow the country table. Unknown keys are refused.
 */
export const PayInCreateParamsSchema = z.discriminatedUnion('country', [
  z.strictObject(PAYIN_SHAPES.CO).check(refinement(checkPayIn)),
  z.strictObject(PAYIN_SHAPES.PE),
  z.strictObject(PAYIN_SHAPES.MX),
  z.strictObject(PAYIN_SHAPES.GT),
  z.strictObject(PAYIN_SHAPES.HN),
]);
/**
 * What `client.payin.create()` takes: one shape per `country` — currency, methods and document types
 * follow it ({@link PayInCreateParamsFor} picks one country's shape).
 * @example
 * const params: PayInCreateParams = { reference: 'order-1001', amount: 50_000, currency: 'COP', country: 'CO',
 *   payment_method: 'PSE', description: 'Order 1001', customer_data: { legal_doc: '1020304050', legal_doc_type: 'CC',
 *   phone_code: '57', phone_number: '3001234567', email: 'ana@example.com', full_name: 'Ana Gómez' } };
 */
export type PayInCreateParams = z.input<typeof PayInCreateParamsSchema>;
/** The PayIn params of one country: `PayInCreateParamsFor<'CO'>` is Colombia's shape. */
export type PayInCreateParamsFor<C extends CountryCode> = Extract<PayInCreateParams, { country: C }>;

/** Legacy v1 rules on top of a country's PayIn: whole amounts, both URLs, description optional. */
const LEGACY_FIELDS = {
  /** Whole amount in the currency's units, not minor units (v1 takes integers only): 150000 with COP is COP 150.000. */
  amount: exactAmount(0),
  /** Optional in v1 (v1 has no description). */
  description: z.optional(text()),
  /** Where the customer returns after payment (required by v1). */
  redirect_url: UrlSchema,
  /** Your webhook receiver (required by v1). */
  ipn_url: UrlSchema,
};

function checkLegacyLimits(value: { payment_method: string; amount: number }, found: Found): void {
  const minimum = (LEGACY_PAYIN_LIMITS.minimum as Record<string, number>)[value.payment_method];
  if (minimum !== undefined && value.amount < minimum) {
    issue(found, ['amount'], `must be at least ${minimum} for ${value.payment_method}`);
  }
  if (value.amount > LEGACY_PAYIN_LIMITS.maximum) {
    issue(found, ['amount'], `must be at most ${LEGACY_PAYIN_LIMITS.maximum}`);
  }
}

/** The deprecated v1 PayIn: integer amount, CO/PE only, redirect_url and ipn_url required. */
export const PayInLegacyCreateParamsSchema = z.discriminatedUnion('country', [
  z
    .strictObject({ ...PAYIN_SHAPES.CO, ...LEGACY_FIELDS })
    .check(refinement(checkPayIn), refinement(checkLegacyLimits)),
  z.strictObject({ ...PAYIN_SHAPES.PE, ...LEGACY_FIELDS }).check(refinement(checkLegacyLimits)),
]);
/** What the deprecated `client.payin.createLegacy()` takes (CO or PE). */
export type PayInLegacyCreateParams = z.input<typeof PayInLegacyCreateParamsSchema>;

/** customer_data of a PayIn in country C: annotate a customer declared apart from the params with it. */
export type PayInCustomerData<C extends CountryCode = CountryCode> = PayInCreateParamsFor<C>['customer_data'];
