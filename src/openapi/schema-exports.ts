/**
 * The schema modules whose exports name the document's components (components.ts), as one
 * namespace. The namespace object lives with this module, in the OpenAPI builder's code: taken
 * of the schema modules themselves, it would sit beside the schemas the client shares and keep
 * every export in a merchant's bundle of `PaymentClient` (docs/performance.md, "Package → 0.4").
 */
export * from '../schemas/merchant.js';
export * from '../schemas/payin.js';
export * from '../schemas/payin-result.js';
export * from '../schemas/payout.js';
export * from '../schemas/sandbox.js';
export * from '../schemas/transaction.js';
export * from '../schemas/wire.js';
