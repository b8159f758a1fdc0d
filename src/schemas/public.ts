/**
 * The `schemas` namespace of the main entry (`import { schemas } from 'payinout'`): every zod
 * schema of the package, the building blocks too (amounts, customer records, the envelope). The
 * schemas a merchant validates with — each request's params, a transaction, a webhook event — are
 * also exported from the main entry by name, and every inferred type is (`PayInCreated`…).
 * Values only: a type re-exported through a namespace is mangled by the .d.ts bundler.
 */
export {
  AmountSchema,
  CountrySchema,
  CurrencySchema,
  CustomerRecordSchema,
  EnvelopeSchema,
} from './common.js';
export { MerchantBalanceSchema, MerchantProfileSchema } from './merchant.js';
export {
  customerFields,
  PayInCreateParamsSchema,
  PayInCustomerSchema,
  PayInLegacyCreateParamsSchema,
} from './payin.js';
export {
  PayInCreatedSchema,
  PaymentInformationSchema,
  PseBankListSchema,
  PseBankSchema,
} from './payin-result.js';
export { PayOutCreatedSchema, PayOutCreateParamsSchema, PayOutCustomerSchema } from './payout.js';
export { RecoveryFieldsSchema } from './recovery.js';
export { SandboxConfirmParamsSchema, SandboxConfirmResultSchema } from './sandbox.js';
export { TransactionCustomerSchema, TransactionSchema } from './transaction.js';
export { WebhookCardSchema, WebhookEventSchema, WebhookUserSchema } from './webhook.js';
