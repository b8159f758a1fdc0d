/**
 * Every error class of core and of the service's answers, as one namespace for the codec
 * (codec.ts) to revive stored errors by name. The namespace object lives with this module, in
 * payinout/bullmq's code: taken of the error modules themselves, it would sit beside the errors
 * the client shares and stay in a merchant's bundle of `PaymentClient` (docs/performance.md,
 * "Package → 0.4").
 */
export * from '../api/errors.js';
export * from '../core/errors.js';
