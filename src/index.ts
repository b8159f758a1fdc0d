/**
 * `payinout`: {@link PaymentClient}, the error classes, the zod schemas and their types, webhook
 * verification and dedupe, and the catalogs. Nothing is defined here; this file only re-exports.
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
export * from './schemas/catalog.js';
export {
  AmountSchema,
  type Country,
  CountrySchema,
  type Currency,
  CurrencySchema,
  type CustomerRecord,
  CustomerRecordSchema,
  type Envelope,
  EnvelopeSchema,
  type TransactionStatus,
} from './schemas/common.js';
export type { OpenEnum, ResponseSchema, Schema } from './schemas/kit.js';
export * from './schemas/merchant.js';
export * from './schemas/payin.js';
export * from './schemas/payin-result.js';
export * from './schemas/payout.js';
export * from './schemas/recovery.js';
export * from './schemas/sandbox.js';
export * from './schemas/transaction.js';
export * from './schemas/webhook.js';
export type { Attributes, AttributeValue, Span, SpanOptions, Tracer } from './tracing/tracer.js';
export { VERSION } from './version.js';
export {
  type TransactionLookup,
  WebhookConfirmationUnavailableError,
  WebhookNotConfirmedError,
} from './webhooks/confirm.js';
export { DedupeStoreTimeoutError } from './webhooks/deadline.js';
export {
  type Acquired,
  type ClaimResult,
  DEFAULT_DEDUPE_TTL_MS,
  DEFAULT_IN_FLIGHT_TTL_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  type DedupeEvent,
  DedupeLease,
  type DedupeStore,
  isNewerStatus,
  MemoryDedupeStore,
  type MemoryDedupeStoreOptions,
  WebhookDeduplicator,
  type WebhookDeduplicatorOptions,
} from './webhooks/dedupe.js';
export {
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
  SIGNATURE_HEADER,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
} from './webhooks/verify.js';
