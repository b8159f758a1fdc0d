/**
 * The simulator's state: merchants, transactions and their indexes, and the one place where
 * a status changes (balance effects and the webhook of guide "States and transitions").
 */
import { randomUUID } from 'node:crypto';
import { isFinalStatus } from '../schemas/catalog.js';
import { realClock, type SandboxClock } from './clock.js';
import { FaultRules } from './faults/rules.js';
import { ChangeFeed } from './feed.js';
import { addMoney, demoMerchants, MerchantStore } from './merchants.js';
import { type RetainedStore, Retention } from './retention.js';
import type {
  SandboxEnvironment,
  SandboxMerchant,
  SandboxOptions,
  SandboxTransaction,
  WebhookSink,
} from './types.js';

/** Default response_message per status; PayOut rejections use the spec's common bank messages. */
export const STATUS_MESSAGES: Readonly<Record<string, string>> = {
  CREATED: 'Transaction created',
  PENDING: 'Transaction pending',
  APPROVED: 'Transaction approved',
  REJECTED: 'Transaction rejected',
  DECLINED: 'Transaction declined by internal rules',
  EXPIRED: 'Transaction expired',
};

/** Guide "Errors": common rejection messages for a rejected PayOut (Spanish, as the service sends them). */
export const PAYOUT_REJECTION_MESSAGES = [
  'Cuenta inactiva o bloqueada',
  'La cuenta o el NIT no coinciden',
  'El número de cuenta no existe',
  'El número de cuenta no es válido',
  'Cuenta no autorizada',
  'El NIT no es válido',
  'Excede el límite de saldo de la cuenta destino',
] as const;

export class SandboxState {
  readonly merchants: MerchantStore;
  readonly environment: SandboxEnvironment;
  readonly clock: SandboxClock;
  readonly timeScale: number;
  readonly payoutSubmissionDelayMs: number;
  readonly autoCompleteDelayMs: number;
  baseUrl: string;
  readonly transactions = new Map<string, SandboxTransaction>();
  /** merchant username → (reference | external id) → ticket. */
  readonly #aliases = new Map<string, Map<string, string>>();
  readonly #references = new Map<string, Set<string>>();
  readonly #timers = new Set<unknown>();
  /** Set by createSandbox; an interface, so the state never imports the deliverer (no cycle). */
  deliverer: WebhookSink | undefined;
  /** Creation and every status change, for the dashboard's history and live updates. */
  readonly feed = new ChangeFeed();
  /** The fault rules in force (`sandbox.faults`), with their seeded draws and log. */
  readonly faults: FaultRules;
  /** Injected faults: the next N confirms answer 500 CONFIRM_FAILED. */
  confirmFailures = 0;
  /** `maxTransactions`: which final transactions are forgotten, and how many were. */
  readonly retention: Retention;
  readonly #retained: RetainedStore;

  constructor(options: SandboxOptions) {
    this.merchants = new MerchantStore(options.merchants ?? demoMerchants());
    this.environment = options.environment ?? 'staging';
    this.clock = options.clock ?? realClock;
    this.timeScale = options.timeScale ?? 1;
    if (!(this.timeScale > 0)) throw new Error('timeScale must be a positive number.');
    this.payoutSubmissionDelayMs = options.payoutSubmissionDelayMs ?? 0;
    this.autoCompleteDelayMs = options.autoCompleteDelayMs ?? 1_000;
    this.baseUrl = (options.baseUrl ?? 'http://127.0.0.1').replace(/\/+$/, '');
    this.retention = new Retention(options.maxTransactions);
    this.faults = new FaultRules({
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.faults ? { faults: options.faults } : {}),
      ...(options.replayFaults ? { replay: options.replayFaults } : {}),
    });
    const { transactions } = this;
    this.#retained = {
      get size() {
        return transactions.size;
      },
      isFinal: (ticket) => {
        const transaction = transactions.get(ticket);
        return transaction && isFinalStatus(transaction.status);
      },
      drop: (ticket) => this.#drop(ticket),
    };
  }

  newTicket(): string {
    return randomUUID();
  }

  hasReference(merchant: SandboxMerchant, reference: string): boolean {
    return this.#references.get(merchant.username)?.has(reference) ?? false;
  }

  add(transaction: SandboxTransaction): void {
    this.transactions.set(transaction.ticket, transaction);
    let refs = this.#references.get(transaction.merchant);
    if (!refs) {
      refs = new Set();
      this.#references.set(transaction.merchant, refs);
    }
    refs.add(transaction.reference);
    let aliases = this.#aliases.get(transaction.merchant);
    if (!aliases) {
      aliases = new Map();
      this.#aliases.set(transaction.merchant, aliases);
    }
    aliases.set(transaction.reference, transaction.ticket);
    for (const id of transaction.externalIds) aliases.set(id, transaction.ticket);
    this.feed.record(transaction);
    this.retention.created(transaction.ticket, this.#retained);
  }

  /**
   * Forgets a final transaction for `maxTransactions`: lookups answer not found, its reference
   * may be used again, its history and webhook deliveries go too (a delivery still retrying
   * keeps retrying; only its record is gone).
   */
  #drop(ticket: string): void {
    const transaction = this.transactions.get(ticket);
    if (!transaction) return;
    this.transactions.delete(ticket);
    this.#references.get(transaction.merchant)?.delete(transaction.reference);
    const aliases = this.#aliases.get(transaction.merchant);
    for (const id of [transaction.reference, ...transaction.externalIds]) {
      if (aliases?.get(id) === ticket) aliases.delete(id);
    }
    this.feed.forget(ticket);
    this.deliverer?.forget(ticket);
  }

  /** By ticket or reference (lookup); `external` also accepts Bre-B keys, cash refs, CLABEs, tracking ids. */
  find(merchant: SandboxMerchant, id: string): SandboxTransaction | undefined {
    const direct = this.transactions.get(id);
    if (direct) return direct.merchant === merchant.username ? direct : undefined;
    const ticket = this.#aliases.get(merchant.username)?.get(id);
    return ticket === undefined ? undefined : this.transactions.get(ticket);
  }

  merchantOf(transaction: SandboxTransaction): SandboxMerchant {
    return this.merchants.byUsername(transaction.merchant)!;
  }

  /** A PayOut is confirmable once submitted to the bank (guide "States and transitions"). */
  isSubmitted(transaction: SandboxTransaction): boolean {
    return transaction.submittedAt === undefined || transaction.submittedAt <= this.clock.now();
  }

  /**
   * The only status change: balance effects (PayIn APPROVED credits; PayOut REJECTED restores
   * the reserve) and one webhook to ipn_url (guide "Events": a webhook on each change).
   */
  setStatus(transaction: SandboxTransaction, status: SandboxTransaction['status'], message?: string): void {
    if (transaction.status === status) return;
    const wasFinal = isFinalStatus(transaction.status);
    const merchant = this.merchantOf(transaction);
    if (transaction.type === 'PAYIN' && status === 'APPROVED') {
      merchant.balance = addMoney(merchant.balance, transaction.amount);
    }
    if (transaction.type === 'PAYOUT' && (status === 'REJECTED' || status === 'DECLINED')) {
      merchant.balance = addMoney(merchant.balance, transaction.amount);
    }
    transaction.status = status;
    transaction.responseMessage = message ?? STATUS_MESSAGES[status] ?? status;
    transaction.updatedAt = this.clock.now();
    this.feed.record(transaction);
    this.deliverer?.enqueue(transaction, merchant);
    if (!wasFinal && isFinalStatus(status)) this.retention.finalized(transaction.ticket, this.#retained);
  }

  /** A simulated delay (scaled by timeScale); cancelled by close(). */
  schedule(ms: number, task: () => void): void {
    const handle = this.clock.setTimeout(() => {
      this.#timers.delete(handle);
      task();
    }, ms * this.timeScale);
    this.#timers.add(handle);
  }

  close(): void {
    for (const handle of this.#timers) this.clock.clearTimeout(handle);
    this.#timers.clear();
  }
}
