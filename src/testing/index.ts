/**
 * `payinout/testing`: the local sandbox simulator ({@link createSandbox}, {@link startSandboxServer},
 * {@link sandboxHandlers}, {@link connectSandbox}) and webhook test helpers. Guide: node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md.
 * @module payinout/testing
 */

export { VERSION } from '../version.js';
export {
  SANDBOX_PAYOUT_BANKS,
  SANDBOX_PSE_APPROVED_EMAIL,
  SANDBOX_PSE_BANK,
  SANDBOX_PSE_BANKS,
} from './catalog.js';
export { type CompletePaymentInput, SANDBOX_TEST_CARDS } from './checkout.js';
export {
  createManualClock,
  formatTimestamp,
  type ManualClock,
  realClock,
  type SandboxClock,
} from './clock.js';
export { type ConnectSandboxOptions, connectSandbox, type SandboxConnection } from './connect.js';
export { SANDBOX_WEBHOOK_USER_AGENT, WEBHOOK_RETRY_MINUTES } from './delivery.js';
export type { SandboxRequestRecord } from './exchange.js';
export {
  API_FAULT_KINDS,
  type FaultKind,
  type FaultOperation,
  type FaultRule,
  FaultRuleError,
  type FaultRuleInput,
  FaultRuleSchema,
  WEBHOOK_FAULT_KINDS,
} from './faults/rule.js';
export type { FaultLog, FaultStats, FiredFault, SandboxFaults } from './faults/rules.js';
export { demoMerchants, formatBalance } from './merchants.js';
export { type SandboxHandlersOptions, type SandboxRequestHandler, sandboxHandlers } from './msw.js';
export {
  createSandbox,
  type Sandbox,
  type WebhookAttempt,
  type WebhookDelivery,
} from './sandbox.js';
export { type SandboxServer, type SandboxServerOptions, startSandboxServer } from './server.js';
export type {
  PayInRequest,
  PayOutRequest,
  SandboxAppliedFault,
  SandboxEnvironment,
  SandboxMerchant,
  SandboxMerchantSeed,
  SandboxOptions,
  SandboxRequest,
  SandboxResponse,
  SandboxTransaction,
  StoredCustomer,
} from './types.js';
export * from './webhooks.js';
