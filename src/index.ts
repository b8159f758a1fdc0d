/**
 * `payinout`: what a merchant imports, by name — `PaymentClient` (and `ENV_VARS`, `VERSION`);
 * every error class a merchant can meet (what a call throws, what a batch result or `onError`
 * carries); the schemas a merchant validates with (each request's params, a transaction, a
 * webhook event); `COUNTRIES` and the status helpers; the webhook receiver's functions and
 * classes — and three namespaces for the rest, as openai-node groups its own: `schemas` (every
 * zod schema, building blocks included), `catalog` (every list of the service guide) and
 * `webhooks` (the receiving side whole: defaults, the lease, its errors). Every type stays
 * exported by name. Nothing is defined here; this file only re-exports.
 * @module payinout
 */

export {
  AlreadyFinalError,
  ConfirmFailedError,
  createApiError,
  StatusNotSupportedError,
  TypeMismatchError,
} from './api/errors.js';
export type { TransactionKind } from './api/types.js';
export {
  BatchAbortedError,
  BatchHaltedError,
  LookupAbortedError,
  LookupHaltedError,
  ReferenceConflictError,
} from './bulk/errors.js';
export type {
  TransactionLookupOptions,
  TransactionLookupProgress,
  TransactionLookupResult,
} from './bulk/lookup-types.js';
export type { PayOutBatchOptions, PayOutBatchProgress, PayOutBatchResult } from './bulk/types.js';
export { PaymentClient } from './client.js';
export { ENV_VARS, type Environment, type PaymentClientOptions } from './client-options.js';
export * from './core/errors.js';
export type { Logger, RequestOptions, ResponseMeta, WithResponse } from './core/transport.js';
// The classes behind client.payin, client.payout…: exported as types so merchants can type their
// own wrappers and the API reference lists their methods; they are built only by PaymentClient.
export type { MerchantResource } from './resources/merchant.js';
export type { PayInResource } from './resources/payin.js';
export type { PayOutResource } from './resources/payout.js';
export type { SandboxResource } from './resources/sandbox.js';
export type { TransactionsResource, WaitOptions } from './resources/transactions.js';
export type { WebhooksResource } from './resources/webhooks.js';
export {
  type AccountType,
  type ApiErrorCode,
  type CatalogValues,
  COUNTRIES,
  type CountryCode,
  type CountryEntry,
  type CountryInfo,
  type CurrencyCode,
  type CurrencyOf,
  type FinalStatus,
  isFinalStatus,
  isKnownErrorCode,
  isValidClabe,
  type KnownTransactionStatus,
  type PayInDocumentType,
  type PayInMethod,
  type PayOutDocumentType,
  type PayOutMethod,
  type PersonType,
  type SandboxConfirmStatus,
} from './schemas/catalog.js';
export * as catalog from './schemas/catalog-namespace.js';
export type { Country, Currency, CustomerRecord, Envelope, TransactionStatus } from './schemas/common.js';
export type { OpenEnum, ResponseSchema, Schema } from './schemas/kit.js';
export type { MerchantBalance, MerchantProfile } from './schemas/merchant.js';
export {
  type NoPseDirect,
  type PayInCreateParams,
  type PayInCreateParamsFor,
  PayInCreateParamsSchema,
  type PayInCustomerData,
  type PayInLegacyCreateParams,
  PayInLegacyCreateParamsSchema,
  type PseDirectPair,
} from './schemas/payin.js';
export type { PayInCreated, PaymentInformation, PseBank } from './schemas/payin-result.js';
export {
  type PayOutCreated,
  type PayOutCreateParams,
  type PayOutCreateParamsFor,
  PayOutCreateParamsSchema,
  type PayOutCustomerData,
} from './schemas/payout.js';
export * as schemas from './schemas/public.js';
export type { Recoverable, RecoveryFields } from './schemas/recovery.js';
export {
  type SandboxConfirmParams,
  SandboxConfirmParamsSchema,
  type SandboxConfirmResult,
} from './schemas/sandbox.js';
export { type Transaction, type TransactionCustomer, TransactionSchema } from './schemas/transaction.js';
export {
  type WebhookCard,
  type WebhookEvent,
  type WebhookEventInput,
  WebhookEventSchema,
  type WebhookUser,
} from './schemas/webhook.js';
export type { Attributes, AttributeValue, Span, SpanOptions, Tracer } from './tracing/tracer.js';
export { VERSION } from './version.js';
export type { TransactionLookup } from './webhooks/confirm.js';
export { WebhookConfirmationUnavailableError, WebhookNotConfirmedError } from './webhooks/confirm.js';
export { DedupeStoreTimeoutError } from './webhooks/deadline.js';
export {
  type Acquired,
  type ClaimResult,
  type DedupeEvent,
  type DedupeLease,
  type DedupeStore,
  isNewerStatus,
  MemoryDedupeStore,
  type MemoryDedupeStoreOptions,
  WebhookDeduplicator,
  type WebhookDeduplicatorOptions,
} from './webhooks/dedupe.js';
export {
  type ClientWebhookHandlerOptions,
  type ConfirmedWebhookHandlerOptions,
  createWebhookHandler,
  type OnWebhookError,
  type WebhookErrorContext,
  type WebhookEventContext,
  type WebhookHandler,
  type WebhookHandlerOptions,
  type WebhookHandlerResult,
  type WebhookTokens,
  type WebhookVerdict,
} from './webhooks/handler.js';
export type { HeadersLike, RawBody } from './webhooks/parse.js';
export * as webhooks from './webhooks/public.js';
export type { NodeWebhookRequest, NodeWebhookResponse } from './webhooks/receive.js';
export {
  type BuiltInSignatureScheme,
  computeWebhookSignature,
  computeWebhookSignatureAsync,
  type SignatureInput,
  type SignatureScheme,
} from './webhooks/signature.js';
export {
  detectWebhookScheme,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
} from './webhooks/verify.js';
