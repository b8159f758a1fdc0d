/**
 * The `webhooks` namespace of the main entry (`import { webhooks } from 'payinout'`): everything
 * of the receiving side, the defaults, the lease and the errors `onError` may be given included.
 * What most receivers import (createWebhookHandler, verifyWebhook…) and every type are also in
 * the main entry by name. Values only: a type re-exported through a namespace is mangled by the
 * .d.ts bundler.
 */
export { WebhookConfirmationUnavailableError, WebhookNotConfirmedError } from './confirm.js';
export { DedupeStoreTimeoutError } from './deadline.js';
export {
  DEFAULT_DEDUPE_TTL_MS,
  DEFAULT_IN_FLIGHT_TTL_MS,
  DEFAULT_STORE_TIMEOUT_MS,
  DedupeLease,
  isNewerStatus,
  MemoryDedupeStore,
  WebhookDeduplicator,
} from './dedupe.js';
export { createWebhookHandler } from './handler.js';
export { computeWebhookSignature, computeWebhookSignatureAsync } from './signature.js';
export { detectWebhookScheme, SIGNATURE_HEADER, verifyWebhook, verifyWebhookAsync } from './verify.js';
