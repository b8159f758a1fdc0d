/**
 * # The operations table: every endpoint of the service's guide, once
 *
 * One entry per endpoint: id (the SDK method it backs), HTTP method, path template, request
 * schema and its human name, response schema, whether it may be resent as it is, which
 * credentials it takes, and for creates how a lost answer is settled by reference. Its words —
 * the guide's section, a summary, the errors the guide documents and when each comes — are read
 * by the OpenAPI document only and live beside it, keyed by these ids
 * (src/openapi/operation-texts.ts).
 *
 * Who reads it:
 * - the client: `src/resources/` (one line per method) → `src/core/` transport;
 * - the simulator: `src/testing/routes.ts` dispatches by method and path, checks `auth`;
 * - the OpenAPI document: `src/openapi/` builds `payinout/openapi.json` from it.
 *
 * Pure data and the small builders below; it imports `src/schemas/` only, so every layer can
 * read it without a cycle. Change a path, a schema or a rule here and all three follow.
 * The executable recovery (lookup, match proof) lives in `recovery.ts`; this file only describes it.
 */
import { MerchantBalanceSchema, MerchantProfileSchema } from '../schemas/merchant.js';
import { PayInCreateParamsSchema, PayInLegacyCreateParamsSchema } from '../schemas/payin.js';
import { PayInCreatedSchema, PseBankListSchema } from '../schemas/payin-result.js';
import { PayOutCreatedSchema, PayOutCreateParamsSchema } from '../schemas/payout.js';
import { SandboxConfirmParamsSchema, SandboxConfirmResultSchema } from '../schemas/sandbox.js';
import { TransactionSchema } from '../schemas/transaction.js';
import { TransactionLookupBodySchema } from '../schemas/wire.js';
import type { MatchRule, Operation, RecoveryMatch } from './types.js';

/**
 * What every create's lookup must show before the SDK calls it this create's result: the same
 * reference, amount and currency, and — where the search answer shows them (its customer object
 * is optional) — the same payment method and customer document.
 */
const CREATE_MATCH = [
  { request: 'reference', found: 'reference', compare: 'id', required: 'always' },
  { request: 'amount', found: 'amount', compare: 'amount', required: 'always' },
  { request: 'currency', found: 'currency', compare: 'text', required: 'always' },
  { request: 'payment_method', found: 'payment_method', compare: 'text', required: 'when-present' },
  {
    request: 'customer_data.legal_doc_type',
    found: 'customer.legal_doc_type',
    compare: 'text',
    required: 'when-present',
  },
  {
    request: 'customer_data.legal_doc',
    found: 'customer.legal_doc',
    compare: 'text',
    required: 'when-present',
  },
] as const satisfies readonly RecoveryMatch[];

/** A PayOut's destination too, where the search answer shows it (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md). */
const PAYOUT_MATCH = [
  ...CREATE_MATCH,
  ...(['bank', 'account_number', 'account_type', 'clabe_number'] as const).map(
    (field) =>
      ({
        request: `customer_data.${field}`,
        found: `customer.${field}`,
        compare: 'text',
        required: 'when-present',
      }) as const,
  ),
] satisfies readonly RecoveryMatch[];

/**
 * What a webhook delivery must share with the looked-up transaction (spec "Events": the signature
 * covers the ticket and reference only, so status, amount and currency are proven by the lookup).
 */
const DELIVERY_MATCH = [
  { request: 'top_ticket', found: 'ticket', compare: 'id', required: 'always' },
  { request: 'top_reference', found: 'reference', compare: 'id', required: 'always' },
  { request: 'top_status', found: 'status', compare: 'text', required: 'always' },
  { request: 'top_amount', found: 'amount', compare: 'amount', required: 'when-claimed' },
  { request: 'top_currency', found: 'currency', compare: 'text', required: 'when-claimed' },
] as const satisfies readonly RecoveryMatch[];

/**
 * The rule `confirmWith` checks a delivery with, on the lookup's (`transactions.get`) answer
 * (src/webhooks/confirm.ts). Beside the table rather than in its lookup entry: the entry is
 * reached by every client, the rule only by the webhook receiver (docs/performance.md,
 * "Package → 0.4").
 */
export const DELIVERY_RULE: MatchRule = { match: DELIVERY_MATCH };

/**
 * What an entry is unless it says otherwise: no path parameter, one object answered, safe to
 * resend, Basic and Token-Top, in every environment, current, no recovery.
 */
const ENDPOINT = {
  pathParams: [],
  request: undefined,
  data: 'single',
  safeToResend: true,
  auth: 'basic+token',
  sandboxOnly: false,
  deprecated: false,
  recovery: undefined,
} as const;

const payinCreate = {
  ...ENDPOINT,
  id: 'payin.create',
  method: 'POST',
  template: '/api/v2/payin',
  request: { schema: PayInCreateParamsSchema, name: 'PayIn' },
  response: PayInCreatedSchema,
  safeToResend: false,
  recovery: {
    kind: 'PAYIN',
    lookup: 'transactions.get',
    key: 'reference',
    match: CREATE_MATCH,
    echoed: ['payment_method', 'redirect_url', 'ipn_url', 'description'],
  },
} as const satisfies Operation;

const payinCreateLegacy = {
  ...payinCreate,
  id: 'payin.createLegacy',
  template: '/api/v1/payin',
  request: { schema: PayInLegacyCreateParamsSchema, name: 'legacy PayIn' },
  deprecated: true,
} as const satisfies Operation;

const payinListPseBanks = {
  ...ENDPOINT,
  id: 'payin.listPseBanks',
  method: 'GET',
  template: '/api/v1/pse/banks',
  response: PseBankListSchema,
} as const satisfies Operation;

const payoutCreate = {
  ...ENDPOINT,
  id: 'payout.create',
  method: 'POST',
  template: '/api/v1/payout',
  request: { schema: PayOutCreateParamsSchema, name: 'PayOut' },
  response: PayOutCreatedSchema,
  safeToResend: false,
  recovery: {
    kind: 'PAYOUT',
    lookup: 'transactions.get',
    key: 'reference',
    match: PAYOUT_MATCH,
    echoed: ['payment_method'],
  },
} as const satisfies Operation;

const merchantGetProfile = {
  ...ENDPOINT,
  id: 'merchant.getProfile',
  method: 'GET',
  template: '/api/v1/merchant/me',
  response: MerchantProfileSchema,
  // Guide "Authentication", rule 2: "The merchant profile example sends Token-Top alone".
  auth: 'token',
} as const satisfies Operation;

const merchantGetBalance = {
  ...ENDPOINT,
  id: 'merchant.getBalance',
  method: 'GET',
  template: '/api/v1/merchant/balance',
  response: MerchantBalanceSchema,
} as const satisfies Operation;

const transactionsGet = {
  ...ENDPOINT,
  id: 'transactions.get',
  method: 'GET',
  template: '/api/v1/transaction/{ticket}',
  pathParams: ['ticket'],
  response: TransactionSchema,
  data: 'single-or-list',
} as const satisfies Operation;

/** The guide's other form of the search: "One guide example calls the same path with POST and the same body". */
const transactionsGetByPost = {
  ...transactionsGet,
  id: 'transactions.getByPost',
  method: 'POST',
  request: { schema: TransactionLookupBodySchema, name: 'transaction lookup' },
} as const satisfies Operation;

const confirm = {
  ...ENDPOINT,
  method: 'POST',
  response: SandboxConfirmResultSchema,
  // Same status again answers 200 SUCCESS (guide "States and transitions"): idempotent.
  safeToResend: true,
  sandboxOnly: true,
} as const;

const sandboxConfirmPayIn = {
  ...confirm,
  id: 'sandbox.confirmPayIn',
  template: '/api/v1/sandbox/payin/confirm',
  request: { schema: SandboxConfirmParamsSchema, name: 'sandbox payin confirm' },
} as const satisfies Operation;

const sandboxConfirmPayOut = {
  ...confirm,
  id: 'sandbox.confirmPayOut',
  template: '/api/v1/sandbox/payout/confirm',
  request: { schema: SandboxConfirmParamsSchema, name: 'sandbox payout confirm' },
} as const satisfies Operation;

/** Every endpoint of the guide, keyed by id. */
export const OPERATIONS = {
  'payin.create': payinCreate,
  'payin.createLegacy': payinCreateLegacy,
  'payin.listPseBanks': payinListPseBanks,
  'payout.create': payoutCreate,
  'merchant.getProfile': merchantGetProfile,
  'merchant.getBalance': merchantGetBalance,
  'transactions.get': transactionsGet,
  'transactions.getByPost': transactionsGetByPost,
  'sandbox.confirmPayIn': sandboxConfirmPayIn,
  'sandbox.confirmPayOut': sandboxConfirmPayOut,
} as const;

/** The id of an operation: 'payin.create', 'transactions.get', … */
export type OperationId = keyof typeof OPERATIONS;

/** The table as a list, in the guide's order. */
// `@__PURE__`: read by the simulator and the OpenAPI document only; a bundle of the client drops it.
export const OPERATION_LIST: readonly Operation[] = /* @__PURE__ */ Object.values(OPERATIONS);
