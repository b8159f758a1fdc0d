/** Shapes shared by the simulator's modules (the state machine and its three front ends). */
import type { CountryCode, CurrencyCode } from '../schemas/catalog.js';
import type { SandboxClock } from './clock.js';

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
  /** Opening balance in the merchant's currency. Default 0: fund it with an approved PayIn (spec "Sandbox funding rule"). */
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
  /** 'production' turns sandbox confirm into 404 NOT_FOUND (spec "Environments"). Default 'staging'. */
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
  /** User-Agent of webhook deliveries (spec "Events", rule 2: service name and version 1.1). */
  webhookUserAgent?: string;
  /** Per-attempt timeout of a webhook delivery. Default 10,000 ms (real time). */
  webhookTimeoutMs?: number;
  /** Deliver every webhook to this URL instead of the transaction's ipn_url (`payinout sandbox --forward-webhooks`). */
  forwardWebhooksTo?: string;
  /** Webhook attempts in flight at once; the rest queue (a burst of confirms stays bounded). Default 16. */
  webhookConcurrency?: number;
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
}

export interface StoredCustomer {
  legal_doc_type: string;
  legal_doc: string;
  phone_code: string;
  phone_number: string;
  email: string;
  full_name: string;
  bank?: string;
  person_type?: string;
  account_number?: string;
  account_type?: string;
  clabe_number?: string;
}

/** A transaction as the simulator stores it (`sandbox.transactions`, `sandbox.getTransaction`). */
export interface SandboxTransaction {
  readonly type: 'PAYIN' | 'PAYOUT';
  readonly ticket: string;
  readonly reference: string;
  readonly merchant: string;
  readonly amount: number;
  readonly currency: CurrencyCode;
  readonly country: CountryCode;
  readonly payment_method: string;
  readonly customer: StoredCustomer;
  readonly ipn_url: string | undefined;
  readonly redirect_url: string | undefined;
  readonly description: string | undefined;
  readonly metadata: Record<string, unknown> | undefined;
  /** External references that also work as sandbox confirm transaction_id (spec "Sandbox confirm"). */
  readonly externalIds: readonly string[];
  /** Only for PayIns with payment_information (Direct/Hybrid). */
  readonly paymentInformation: Record<string, unknown> | undefined;
  readonly createdAt: number;
  /** PayOut: when it reaches the bank; before that sandbox confirm refuses it. */
  readonly submittedAt: number | undefined;
  status: string;
  responseMessage: string;
  updatedAt: number;
  /** PSE only: the bank's transaction number. */
  readonly cus: string | undefined;
  /** CARD only: what top_card carries. */
  card: Record<string, string> | undefined;
}
