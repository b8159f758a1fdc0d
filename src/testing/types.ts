/** Shapes shared by the simulator's modules (the state machine and its three front ends). */
import type * as z from 'zod/mini';
import type { OPERATIONS } from '../api/operations.js';
import type { TransactionKind } from '../api/types.js';
import type { CountryCode, CurrencyCode } from '../schemas/catalog.js';
import type { PayInCreated } from '../schemas/payin-result.js';
import type { Transaction } from '../schemas/transaction.js';
import type { WebhookCard } from '../schemas/webhook.js';
import type { SandboxClock } from './clock.js';
import type { FaultKind, FaultRuleInput } from './faults/rule.js';
import type { FaultLog } from './faults/rules.js';

/** The environment the simulator plays; 'production' refuses sandbox confirm. */
export type SandboxEnvironment = 'staging' | 'uat' | 'production';
export type Direction = 'payin' | 'payout';

/** One merchant of the simulator; credentials are what PaymentClient sends. */
export interface SandboxMerchantSeed {
  username: string;
  password: string;
  token: string;
  country: CountryCode;
  /** Registered name (GET /api/v1/merchant/me). Default derived from the username. */
  name?: string;
  /** Tax ID. Default a fixed fake NIT. */
  nit?: string;
  email?: string;
  /** Opening balance in the merchant's currency. Default 0: fund it with an approved PayIn (guide "What the service does", "Sandbox funding rule"). */
  balance?: number;
}

/** A simulator merchant's live record: credentials, country, currency and current balance. */
export interface SandboxMerchant {
  readonly username: string;
  readonly password: string;
  readonly token: string;
  readonly country: CountryCode;
  readonly currency: CurrencyCode;
  readonly name: string;
  readonly nit: string;
  readonly email: string;
  balance: number;
}

/** Options of {@link createSandbox}. */
export interface SandboxOptions {
  /** Merchants; default one demo merchant per country (CO, PE, MX, GT, HN). */
  merchants?: readonly SandboxMerchantSeed[];
  /** 'production' turns sandbox confirm into 404 NOT_FOUND (guide "What the service does", "Environments"). Default 'staging'. */
  environment?: SandboxEnvironment;
  /** Time source and timers. Default the real clock (Date.now / setTimeout). */
  clock?: SandboxClock;
  /** Multiplies every simulated delay (webhook retries, auto-completion); e.g. 0.0001 in tests. Default 1. */
  timeScale?: number;
  /** How long a new PayOut waits before it is submitted to the bank (and becomes confirmable). Default 0. */
  payoutSubmissionDelayMs?: number;
  /** Delay before PSE (bank Banka) and NEQUI_PUSH PayIns complete by themselves. Default 1,000 ms (scaled). */
  autoCompleteDelayMs?: number;
  /** Root used to build payment_url; startSandboxServer and sandboxHandlers set it. */
  baseUrl?: string;
  /** Sends webhooks; default globalThis.fetch. Set `webhooks: false` to record deliveries without sending. */
  fetch?: typeof fetch;
  /** false: record webhook deliveries but never send them. Default true. */
  webhooks?: boolean;
  /** User-Agent of webhook deliveries (guide "Events", rule 2: service name and version 1.1). */
  webhookUserAgent?: string;
  /** Per-attempt timeout of a webhook delivery. Default 10,000 ms (real time). */
  webhookTimeoutMs?: number;
  /** Deliver every webhook to this URL instead of the transaction's ipn_url (`payinout sandbox --forward-webhooks`). */
  forwardWebhooksTo?: string;
  /** Webhook attempts in flight at once; the rest queue (a burst of confirms stays bounded). Default 16. */
  webhookConcurrency?: number;
  /**
   * Bounds memory (`payinout sandbox --max-transactions N`): beyond this many transactions the
   * oldest ones in a final status (APPROVED, REJECTED, DECLINED, EXPIRED) are forgotten with
   * their webhook deliveries; a CREATED or PENDING one never is. A forgotten transaction is
   * not found by lookups and its reference may be used again. Default: keep everything.
   */
  maxTransactions?: number;
  /**
   * Fault rules in force from the start (node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md, "Faults"):
   * e.g. `{ operation: 'payout.create', kind: 'drop-after-commit', rate: 0.05 }`. Change them at
   * run time with `sandbox.faults`. A bad rule throws FaultRuleError naming the closest valid word.
   */
  faults?: readonly FaultRuleInput[];
  /** Seed of the faults' `rate` draws: the same seed and the same requests fire the same faults. Default: random (see `sandbox.faults.seed`). */
  seed?: number;
  /** Fire exactly the faults of an earlier run's `sandbox.faults.log()` (its seed and rules), on the same requests. */
  replayFaults?: FaultLog;
}

/** What every front end hands to `sandbox.handle()`. */
export interface SandboxRequest {
  method: string;
  /** Path (and optional query) relative to the base URL, e.g. '/api/v2/payin'. */
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Raw JSON text, an already parsed value, or undefined. */
  body?: unknown;
}

/** What `sandbox.handle()` answers: status, headers and the envelope (or checkout HTML). */
export interface SandboxResponse {
  status: number;
  headers: Record<string, string>;
  /** A JSON value, or a string (already serialised: HTML of the checkout page). */
  body: unknown;
  /**
   * Set when a fault rule fired on this request. The HTTP front ends act on it: a `drop-*` closes
   * the connection with no answer (here `status` is 0 and `body` undefined), a `delay` waits `ms`.
   */
  fault?: SandboxAppliedFault;
}

/** The fault rule that fired on a request, on {@link SandboxResponse.fault}. */
export interface SandboxAppliedFault {
  /** The rule's id (`sandbox.faults.list()`). */
  readonly rule: string;
  readonly kind: FaultKind;
  /** delay: milliseconds to wait before answering. */
  readonly ms?: number;
  /** drop-after-commit: the status the request's answer had before it was dropped. */
  readonly committed?: number;
}

/** A PayIn create request as the table's schema parses it (what the simulator stores). */
/** A PayIn create request as the simulator stores it (the table's request schema, parsed). */
export type PayInRequest = z.output<(typeof OPERATIONS)['payin.create']['request']['schema']>;
/** A PayOut create request as the table's schema parses it. */
/** A PayOut create request as the simulator stores it (the table's request schema, parsed). */
export type PayOutRequest = z.output<(typeof OPERATIONS)['payout.create']['request']['schema']>;

/**
 * The customer as the create request carried it, parsed by its schema: a PayIn's customer_data
 * or a PayOut's (which adds the destination account).
 */
export type StoredCustomer = PayInRequest['customer_data'] | PayOutRequest['customer_data'];

/** What the simulator hands to its webhook deliverer on every status change (delivery.ts). */
export interface WebhookSink {
  enqueue(transaction: SandboxTransaction, merchant: SandboxMerchant): void;
  /** Drops the records of this transaction's deliveries (`maxTransactions`). */
  forget(ticket: string): void;
  /** Where this transaction's webhooks go (a forward URL, or its ipn_url); undefined: nowhere. */
  targetFor(transaction: SandboxTransaction): string | undefined;
}

/**
 * A transaction as the simulator stores it (`sandbox.transactions`, `sandbox.getTransaction`):
 * the fields of its create request, typed by the table's request schemas, what the service
 * adds (ticket, status, response_message as in the search answer's schema), and the simulator's
 * own bookkeeping (times, external references).
 */
export interface SandboxTransaction {
  readonly type: TransactionKind;
  readonly ticket: Transaction['ticket'];
  readonly reference: PayInRequest['reference'];
  /** The merchant's username. */
  readonly merchant: string;
  readonly amount: PayInRequest['amount'];
  readonly currency: CurrencyCode;
  readonly country: CountryCode;
  readonly payment_method: PayInRequest['payment_method'];
  readonly customer: StoredCustomer;
  readonly ipn_url: PayInRequest['ipn_url'];
  readonly redirect_url: PayInRequest['redirect_url'];
  readonly description: PayInRequest['description'] | undefined;
  readonly metadata: PayOutRequest['metadata'];
  /** External references that also work as sandbox confirm transaction_id (guide "POST /api/v1/sandbox/payin/confirm and POST /api/v1/sandbox/payout/confirm", "Prerequisites"). */
  readonly externalIds: readonly string[];
  /** Only for PayIns with payment_information (Direct/Hybrid). */
  readonly paymentInformation: PayInCreated['payment_information'];
  readonly createdAt: number;
  /** PayOut: when it reaches the bank; before that sandbox confirm refuses it. */
  readonly submittedAt: number | undefined;
  status: Transaction['status'];
  responseMessage: NonNullable<Transaction['response_message']>;
  updatedAt: number;
  /** PSE only: the bank's transaction number. */
  readonly cus: NonNullable<Transaction['cus']> | undefined;
  /** CARD only: what top_card carries. */
  card: WebhookCard | undefined;
}
