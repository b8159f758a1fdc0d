// typedoc-only entry point (typedoc.json, tsconfig.docs.json): never built nor published. It gives the
// classes behind client.payin, client.payout, … pages of their own, since src/index.ts exports only PaymentClient.
/**
 * The resource objects of a {@link payinout!PaymentClient}: `client.payin`, `client.payout`,
 * `client.merchant`, `client.transactions`, `client.sandbox` and `client.webhooks`.
 *
 * They are reached only through a client (`new PaymentClient(…)` or `PaymentClient.fromEnv()`);
 * `payinout` does not export these class names. This page exists so the API reference can list
 * their methods.
 * @module client resources
 */
export { MerchantResource } from '../../src/resources/merchant.js';
export { PayInResource } from '../../src/resources/payin.js';
export { PayOutResource } from '../../src/resources/payout.js';
export { SandboxResource } from '../../src/resources/sandbox.js';
export { TransactionsResource } from '../../src/resources/transactions.js';
export { WebhooksResource } from '../../src/resources/webhooks.js';
