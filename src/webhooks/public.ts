/**
 * The `webhooks` namespace of the main entry (`import { webhooks } from 'payinout'`): everything
 * of the receiving side, the defaults, the lease and the errors `onError` may be given included.
 * What most receivers import (createWebhookHandler, verifyWebhook…) is also in the main entry by name.
 */
export {
  type TransactionLookup,
  WebhookConfirmationUnavailableError,
  WebhookNotConfirmedError,
} from './confirm.js';
export { DedupeStoreTimeoutError } from './deadline.js';
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
} from './dedupe.js';
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
} from './handler.js';
export type { HeadersLike, RawBody } from './parse.js';
export type { NodeWebhookRequest, NodeWebhookResponse } from './receive.js';
export {
  type BuiltInSignatureScheme,
  computeWebhookSignature,
  computeWebhookSignatureAsync,
  type SignatureInput,
  type SignatureScheme,
} from './signature.js';
export {
  detectWebhookScheme,
  SIGNATURE_HEADER,
  type VerifyWebhookOptions,
  verifyWebhook,
  verifyWebhookAsync,
} from './verify.js';
