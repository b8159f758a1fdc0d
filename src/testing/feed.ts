/**
 * What happened to each transaction, in order: its creation and every status change, with the
 * sandbox clock time. The dashboard shows it as the status history and listens to it for live
 * updates; the state machine writes to it from its one status-changing method.
 */
import type { SandboxTransaction } from './types.js';

/** One entry of a transaction's status history. */
export interface StatusChange {
  readonly status: string;
  /** Sandbox clock time (ms since epoch). */
  readonly at: number;
  /** The response_message that came with the status, or what a fault rule did. */
  readonly message: string;
  /** True for a fault that fired on a request about this transaction (the status did not change). */
  readonly fault?: true;
}

type Listener = (transaction: SandboxTransaction) => void;

export class ChangeFeed {
  readonly #history = new Map<string, StatusChange[]>();
  readonly #listeners = new Set<Listener>();

  /** Appends the transaction's current status to its history and tells the listeners. */
  record(transaction: SandboxTransaction): void {
    let history = this.#history.get(transaction.ticket);
    if (!history) {
      history = [];
      this.#history.set(transaction.ticket, history);
    }
    history.push({
      status: transaction.status,
      at: transaction.updatedAt,
      message: transaction.responseMessage,
    });
    for (const listener of this.#listeners) listener(transaction);
  }

  /** A fault fired on a request about this transaction: "payout.create: answer dropped after commit (fault-1)". */
  note(transaction: SandboxTransaction, at: number, message: string): void {
    this.#history.get(transaction.ticket)?.push({ status: transaction.status, at, message, fault: true });
    for (const listener of this.#listeners) listener(transaction);
  }

  /** The transaction was dropped (`maxTransactions`). */
  forget(ticket: string): void {
    this.#history.delete(ticket);
  }

  history(ticket: string): readonly StatusChange[] {
    return this.#history.get(ticket) ?? [];
  }

  subscribe(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
