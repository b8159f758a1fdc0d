/** PayOut (disbursements): POST /api/v1/payout. */
import * as z from 'zod/mini';
import {
  COUNTRY_TABLE as COUNTRIES,
  type CountryCode,
  CURRENCY_DECIMALS,
  type CurrencyOf,
  isValidClabe,
} from './catalog.js';
import {
  exactAmount,
  issue,
  listed,
  orRequired,
  referenceText,
  refinement,
  type TextSchema,
  text,
  UrlSchema,
} from './common.js';
import { responseSchema } from './kit.js';
import { customerFields } from './payin.js';

/** The destination fields of a PayOut customer, with the country's document and account types. */
function payOutCustomerShape<D extends TextSchema, A extends TextSchema>(legal_doc_type: D, account_type: A) {
  return {
    ...customerFields,
    /** Document type: one of the country's PayOut list (Colombia adds NIT); any non-empty string for MX, GT and HN. */
    legal_doc_type,
    /** Mexico SPEI: the same value as account_number (required there; optional elsewhere). */
    clabe_number: z.optional(text()),
    /** Destination bank identifier, an uppercase enum-style name, e.g. BANCOLOMBIA (list not shown by the spec). */
    bank: text(),
    /** Destination account number (Mexico SPEI: the 18-digit CLABE). */
    account_number: text(),
    /** Destination account type: one of the country's (AHORRO, CORRIENTE, WALLET, CLABE…). */
    account_type,
  };
}

/** customer_data of a PayOut request (spec "customer_data (PayOut request)"), any country. */
// `@__PURE__`: the request schemas build their own per country; a bundle that reads only those drops this one.
export const PayOutCustomerSchema = /* @__PURE__ */ z.strictObject(payOutCustomerShape(text(), text()));

/**
 * The CLABE checks need only account_number and clabe_number: they run whenever both were read
 * as text, so a row missing another field (bank, email…) shows every error in one pass.
 */
const bothClabeFieldsRead = {
  when: (payload: z.core.ParsePayload): boolean => {
    const value = payload.value as { account_number?: unknown; clabe_number?: unknown } | undefined;
    return typeof value?.account_number === 'string' && typeof value.clabe_number === 'string';
  },
};

/** Mexico SPEI (spec prerequisite 4): CLABE account type, one valid CLABE in both fields. */
const mxCustomer = z
  .strictObject({
    ...payOutCustomerShape(
      text(),
      z.literal('CLABE', { error: orRequired("must be 'CLABE' for a Mexico SPEI PayOut") }),
    ),
    /** Mexico SPEI: the same 18-digit CLABE as account_number. */
    clabe_number: text(),
  })
  .check(
    refinement((customer, found) => {
      if (!isValidClabe(customer.account_number)) {
        issue(found, ['account_number'], 'must be an 18-digit CLABE with a valid check digit');
      }
      if (customer.clabe_number !== customer.account_number) {
        issue(found, ['clabe_number'], 'must equal account_number for a Mexico SPEI PayOut');
      }
    }, bothClabeFieldsRead),
  );

/** The fields of a PayOut for one country: currency, amount precision, methods and customer follow it. */
function payOutShape<C extends CountryCode, M extends TextSchema, K extends z.ZodMiniType>(
  country: C,
  payment_method: M,
  customer_data: K,
) {
  const currency = COUNTRIES[country].currency as CurrencyOf<C>;
  return {
    /** How the money is sent: BANK_TRANSFER or BREB (CO), BANK_TRANSFER (PE), SPEI (MX); any name for GT and HN. */
    payment_method,
    /** Your unique reference for this PayOut; the SDK looks it up after a lost answer, before any resend. */
    reference: referenceText(),
    /**
     * Amount to send, exactly as given: the SDK converts nothing. The spec does not settle its unit
     * (minor units per its schema, the currency's units per its guide: 150000 with COP is then
     * COP 150.000); at most 2 decimals, which fits both readings. node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md (row 3)
     */
    amount: exactAmount(CURRENCY_DECIMALS[currency]),
    /** The country's currency (CO COP, PE PEN, MX MXN, GT GTQ, HN HNL). */
    currency: z.literal(currency, { error: orRequired(`must be ${currency} for country ${country}`) }),
    /** ISO 3166-1 alpha-2 country of the destination: CO, PE or MX (GT, HN: node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md, row 2). */
    country: z.literal(country),
    /** Your webhook receiver (required for a PayOut). */
    ipn_url: UrlSchema,
    /** The beneficiary and the destination account. */
    customer_data,
    /** Free-form data of yours, kept with the PayOut. */
    metadata: z.optional(z.record(z.string(), z.unknown())),
  };
}

const method = (country: 'CO' | 'PE') => `is not a PayOut method in ${country}` as const;
const docType = (country: 'CO' | 'PE') => `is not a PayOut document type in ${country}` as const;
const account = (country: 'CO' | 'PE') => `is not an account type in ${country}` as const;
const listedCustomer = <C extends 'CO' | 'PE'>(country: C) =>
  z.strictObject(
    payOutCustomerShape(
      listed(COUNTRIES[country].payoutDocumentTypes, docType(country)) as z.ZodMiniType<
        (typeof COUNTRIES)[C]['payoutDocumentTypes'][number],
        (typeof COUNTRIES)[C]['payoutDocumentTypes'][number]
      >,
      listed(COUNTRIES[country].accountTypes, account(country)) as z.ZodMiniType<
        (typeof COUNTRIES)[C]['accountTypes'][number],
        (typeof COUNTRIES)[C]['accountTypes'][number]
      >,
    ),
  );
const openCustomer = () => z.strictObject(payOutCustomerShape(text(), text()));

/**
 * The body of POST /api/v1/payout, discriminated by `country`: currency, amount precision, methods,
 * document and account types follow the country table; Mexico SPEI needs a valid CLABE in
 * account_number and clabe_number. Unknown keys are refused.
 */
export const PayOutCreateParamsSchema = z.discriminatedUnion('country', [
  z.strictObject(payOutShape('CO', listed(COUNTRIES.CO.payoutMethods, method('CO')), listedCustomer('CO'))),
  z.strictObject(payOutShape('PE', listed(COUNTRIES.PE.payoutMethods, method('PE')), listedCustomer('PE'))),
  z.strictObject(
    payOutShape('MX', listed(COUNTRIES.MX.payoutMethods, 'is not a PayOut method in MX'), mxCustomer),
  ),
  z.strictObject(payOutShape('GT', text(), openCustomer())),
  z.strictObject(payOutShape('HN', text(), openCustomer())),
]);
/**
 * What `client.payout.create()` takes: one shape per `country` — currency, methods, document and
 * account types follow it ({@link PayOutCreateParamsFor} picks one country's shape).
 */
export type PayOutCreateParams = z.input<typeof PayOutCreateParamsSchema>;
/** The PayOut params of one country: `PayOutCreateParamsFor<'MX'>` is Mexico's shape. */
export type PayOutCreateParamsFor<C extends CountryCode> = Extract<PayOutCreateParams, { country: C }>;

/** data of a PayOut creation (spec "PayOut creation result"); the initial status is PENDING. */
export const PayOutCreatedSchema = responseSchema((k) =>
  k.object({
    ticket: z.string(),
    date: z.string(),
    transaction: k.object({
      reference: z.string(),
      amount: k.amount,
      currency: z.string(),
      payment_method: z.string(),
    }),
  }),
);
/** The result of a PayOut creation: `ticket`, `date`, `transaction` (status PENDING). */
export type PayOutCreated = z.infer<typeof PayOutCreatedSchema.tolerant>;

/** customer_data of a PayOut in country C: annotate a customer declared apart from the params with it. */
export type PayOutCustomerData<C extends CountryCode = CountryCode> =
  PayOutCreateParamsFor<C>['customer_data'];
