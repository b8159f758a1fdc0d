/** Public exports of `payinout`; nothing is defined here. */
export { ENV_VARS, type Environment, PaymentClient, type PaymentClientOptions } from './client.js';
export * from './core/errors.js';
export type { Logger, RequestOptions, ResponseMeta, WithResponse } from './core/transport.js';
export type { WaitOptions } from './resources/transactions.js';
export * from './schemas/catalog.js';
export {
  AmountSchema,
  type Country,
  CountrySchema,
  type Currency,
  CurrencySchema,
  type Envelope,
  EnvelopeSchema,
  type TransactionStatus,
} from './schemas/common.js';
export type { OpenEnum, ResponseSchema } from './schemas/kit.js';
export * from './schemas/merchant.js';
export * from './schemas/payin.js';
export * from './schemas/payout.js';
export * from './schemas/sandbox.js';
export * from './schemas/transaction.js';
export { VERSION } from './version.js';
