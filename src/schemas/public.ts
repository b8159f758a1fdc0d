/**
 * The `schemas` namespace of the main entry (`import { schemas } from 'payinout'`): every zod
 * schema of the package with its inferred types, the building blocks too (amounts, customer
 * records, the envelope). The schemas a merchant validates with — each request's params, a
 * transaction, a webhook event — are also exported from the main entry by name.
 */
export {
  AmountSchema,
  CountrySchema,
  CurrencySchema,
  CustomerRecordSchema,
  EnvelopeSchema,
} from './common.js';
export * from './merchant.js';
export * from './payin.js';
export * from './payin-result.js';
export * from './payout.js';
export * from './recovery.js';
export * from './sandbox.js';
export * from './transaction.js';
export * from './webhook.js';
