/**
 * `createSandbox()`: the in-process simulator of the whole service. A state machine behind one
 * `handle(request) → response` core; no sockets of its own — the front ends (server.ts, msw.ts,
 * the CLI) do the I/O. The only outbound traffic is webhook deliveries to each ipn_url.
 */
import { type CompletePaymentInput, completePayment } from './checkout.js';
import {
  SANDBOX_WEBHOOK_USER_AGENT,
  type WebhookAttempt,
  WebhookDeliverer,
  type WebhookDelivery,
} from './delivery.js';
import type { SandboxFaults } from './faults/rules.js';
import { handle } from './routes.js';
import { SandboxState } from './state.js';
import type {
  SandboxEnvironment,
  SandboxMerchant,
  SandboxMerchantSeed,
  SandboxOptions,
  SandboxRequest,
  SandboxResponse,
  SandboxTransaction,
} from './types.js';

/** The in-process simulator {@link createSandbox} returns: its state, inspectable, and its request core. */
export interface Sandbox {
  /** 'production' answers sandbox confirm with 404 NOT_FOUND. */
  readonly environment: SandboxEnvironment;
  /** Root used in payment_url links; the HTTP front ends set it to their own address. */
  baseUrl: string;
  /** Live merchant records (balances included). */
  readonly merchants: readonly SandboxMerchant[];
  /** Every transaction by ticket (less the final ones `maxTransactions` dropped). */
  readonly transactions: ReadonlyMap<string, SandboxTransaction>;
  /** Every webhook delivery, in order, with its attempts (less those dropped by `maxTransactions`). */
  readonly deliveries: readonly WebhookDelivery[];
  /** How many final transactions `maxTransactions` has dropped so far (0 without the option). */
  readonly droppedTransactions: number;
  /**
   * Fault rules: what the simulator does wrong on purpose, drawn from a seeded generator
   * (`add`, `remove`, `clear`, `list`, `stats`, `log`). Guide: node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md ("Faults").
   */
  readonly faults: SandboxFaults;
  /** The request core: what an HTTP request to {base_url}{path} would answer. */
  handle(request: SandboxRequest): SandboxResponse;
  /** Adds a merchant (credentials, country, opening balance) and returns its live record. */
  addMerchant(seed: SandboxMerchantSeed): SandboxMerchant;
  /** By ticket, reference or external reference, for any merchant. */
  getTransaction(id: string): SandboxTransaction | undefined;
  /** What the customer does on the checkout page: pay (status or test card) a pending PayIn. */
  completePayment(ticket: string, input: CompletePaymentInput): SandboxResponse;
  /** The next `count` sandbox confirms answer 500 CONFIRM_FAILED without a status change. */
  injectConfirmFailure(count?: number): void;
  /** Called after each webhook attempt; returns an unsubscribe function. */
  onWebhookAttempt(listener: (delivery: WebhookDelivery) => void): () => void;
  /** Resolves with the first delivery (past or future) for which `match` is true after an attempt. */
  waitForDelivery(
    match: (delivery: WebhookDelivery) => boolean,
    options?: { timeoutMs?: number },
  ): Promise<WebhookDelivery>;
  /** Resolves when no webhook attempt is in flight or queued. */
  flushWebhooks(): Promise<void>;
  /**
   * Sends the last webhook of a transaction (ticket, reference or external reference) again, as
   * a new delivery with its own attempts — what the dashboard's `Resend webhook` button does.
   * Throws when the transaction is unknown or never had a webhook (no ipn_url).
   */
  resendWebhook(id: string): WebhookDelivery;
  /** Cancels pending timers (retries, auto-completions). */
  close(): void;
}

export type { WebhookAttempt, WebhookDelivery };

/**
 * The in-process simulator of the whole service: every endpoint, the sandbox-confirm state
 * machine, balances, and signed webhook deliveries with the spec's retry schedule. No sockets
 * of its own: serve it with {@link startSandboxServer} or {@link sandboxHandlers}, or call
 * `handle()` directly. Guide: node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md.
 * @example
 * const sandbox = createSandbox({ timeScale: 0.001 }); // one demo merchant per country
 * const server = await startSandboxServer({ sandbox });
 * // … run the code under test against server.url …
 * const tx = sandbox.getTransaction('order-1001');
 * console.log(tx?.status, sandbox.deliveries.length);
 * await server.close();
 */
export function createSandbox(options: SandboxOptions = {}): Sandbox {
  const state = new SandboxState(options);
  const deliverer = delivererFor(state, options);
  state.deliverer = deliverer;
  const findAny = (id: string) => findTransaction(state, id);
  const sandbox: Sandbox = {
    environment: state.environment,
    get baseUrl() {
      return state.baseUrl;
    },
    set baseUrl(url: string) {
      state.baseUrl = url.replace(/\/+$/, '');
    },
    merchants: state.merchants.list,
    transactions: state.transactions,
    get droppedTransactions() {
      return state.retention.dropped;
    },
    get deliveries() {
      return deliverer.deliveries;
    },
    faults: state.faults,
    handle: (request) => handle(state, request),
    addMerchant: (seed) => state.merchants.add(seed),
    getTransaction: findAny,
    completePayment: (ticket, input) => completePayment(state, findAny(ticket), input),
    injectConfirmFailure(count = 1) {
      state.confirmFailures += count;
    },
    onWebhookAttempt: (listener) => deliverer.onAttempt(listener),
    waitForDelivery: (match, { timeoutMs = 10_000 } = {}) => waitForDelivery(deliverer, match, timeoutMs),
    flushWebhooks: () => deliverer.flush(),
    resendWebhook: (id) => resendWebhook(deliverer, findAny(id), id),
    close() {
      state.close();
      deliverer.close();
    },
  };
  INTERNALS.set(sandbox, { state, deliverer });
  return sandbox;
}

function delivererFor(state: SandboxState, options: SandboxOptions): WebhookDeliverer {
  return new WebhookDeliverer({
    clock: state.clock,
    timeScale: state.timeScale,
    fetch: options.fetch,
    enabled: options.webhooks ?? true,
    userAgent: options.webhookUserAgent ?? SANDBOX_WEBHOOK_USER_AGENT,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    forwardTo: options.forwardWebhooksTo,
    concurrency: options.webhookConcurrency,
    faults: state.faults,
  });
}

/** By ticket, else by reference in any merchant's transactions. */
function findTransaction(state: SandboxState, id: string): SandboxTransaction | undefined {
  const direct = state.transactions.get(id);
  if (direct) return direct;
  for (const merchant of state.merchants.list) {
    const found = state.find(merchant, id);
    if (found) return found;
  }
  return undefined;
}

/** The first delivery, past or coming, with an attempt that `match` accepts. */
function waitForDelivery(
  deliverer: WebhookDeliverer,
  match: (delivery: WebhookDelivery) => boolean,
  timeoutMs: number,
): Promise<WebhookDelivery> {
  const done = deliverer.deliveries.find((d) => d.attempts.length > 0 && match(d));
  if (done) return Promise.resolve(done);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`No matching webhook delivery within ${timeoutMs} ms.`));
    }, timeoutMs);
    const unsubscribe = deliverer.onAttempt((delivery) => {
      if (!match(delivery)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(delivery);
    });
  });
}

function resendWebhook(
  deliverer: WebhookDeliverer,
  transaction: SandboxTransaction | undefined,
  id: string,
): WebhookDelivery {
  if (!transaction) throw new Error(`No transaction with ticket or reference '${id}'.`);
  const delivery = deliverer.resend(transaction.ticket);
  if (!delivery) throw new Error(`Transaction '${id}' has had no webhook to resend (it has no ipn_url).`);
  return delivery;
}

/** What the HTTP front end's dashboard reads beyond the public {@link Sandbox} surface. */
export interface SandboxInternals {
  readonly state: SandboxState;
  readonly deliverer: WebhookDeliverer;
}

const INTERNALS = new WeakMap<Sandbox, SandboxInternals>();

/** The state behind a sandbox made by {@link createSandbox} (undefined for any other object). */
export function sandboxInternals(sandbox: Sandbox): SandboxInternals | undefined {
  return INTERNALS.get(sandbox);
}
