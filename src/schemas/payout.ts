/** PayOut (disbursements): POST /api/v1/payout. */
import * as z from 'zod/mini';
import { COUNTRIES, isValidClabe } from './catalog.js';
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
import { customerFields } from './payin.js';

/** customer_data of a PayOut request (spec "customer_data (PayOut request)"). */
export const PayOutCustomerSchema = z.looseObject({
  ...customerFields,
  /** Destination bank identifier, an uppercase enum-style name (list not shown by the spec). */
  bank: text(),
  account_number: text(),
  account_type: text(),
  /** Mexico SPEI: the same value as account_number. */
  clabe_number: z.optional(text()),
});

/** The body of POST /api/v1/payout, with the spec's rules (methods, document and account types per country, Mexico SPEI CLABE). */
export const PayOutCreateParamsSchema = z
  .looseObject({
    payment_method: text(),
    reference: text(),
    /** The spec does not settle the unit (minor units vs currency amount): sent as given. */
    amount: AmountSchema,
    currency: CurrencySchema,
    country: CountrySchema,
    ipn_url: UrlSchema,
    customer_data: PayOutCustomerSchema,
    metadata: z.optional(z.record(z.string(), z.unknown())),
  })
  .check(
    z.superRefine((value, ctx) => {
      const info = COUNTRIES[value.country];
      const customer = value.customer_data;
      checkCountryCurrency(ctx, value.country, value.currency);
      checkListed(
        ctx,
        ['payment_method'],
        value.payment_method,
        info.payoutMethods,
        `is not a PayOut method in ${value.country}`,
      );
      checkListed(
        ctx,
        ['customer_data', 'legal_doc_type'],
        customer.legal_doc_type,
        info.payoutDocumentTypes,
        `is not a PayOut document type in ${value.country}`,
      );
      if (value.country === 'MX' && value.payment_method === 'SPEI') {
        // Spec prerequisite 4: CLABE account type, one valid CLABE in both fields.
        if (customer.account_type !== 'CLABE') {
          issue(ctx, ['customer_data', 'account_type'], "must be 'CLABE' for a Mexico SPEI PayOut");
        }
        if (!isValidClabe(customer.account_number)) {
          issue(
            ctx,
            ['customer_data', 'account_number'],
            'must be an 18-digit CLABE with a valid check digit',
          );
        }
        if (customer.clabe_number !== customer.account_number) {
          issue(ctx, ['customer_data', 'clabe_number'], 'must equal account_number for a Mexico SPEI PayOut');
        }
      } else {
        checkListed(
          ctx,
          ['customer_data', 'account_type'],
          customer.account_type,
          info.accountTypes,
          `is not an account type in ${value.country}`,
        );
      }
    }),
  );
/** What `client.payout.create()` takes. */
export type PayOutCreateParams = z.input<typeof PayOutCreateParamsSchema>;

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
