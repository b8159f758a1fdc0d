/** The ways a batch item fails that no single call produces. */
import { ConnectionError, PayinoutError } from '../core/errors.js';

/** The batch's signal was aborted before this item was sent; nothing was sent for it. */
export class BatchAbortedError extends PayinoutError {
  override name = 'BatchAbortedError';
  readonly reference: string;
  constructor(reference: string, reason: unknown, message?: string) {
    super(
      message ??
        `PayOut '${reference}' was not sent: the batch was aborted before its create was sent. Run the batch again to send it; ` +
          'references that already exist are recovered, never sent twice.',
      { cause: reason },
    );
    this.reference = reference;
  }
}

/**
 * The batch stopped itself on a failure that every later item would meet too (refused
 * credentials, a refused configuration, a rate limit asking for a wait longer than a batch
 * pauses), before this item was sent: nothing was sent for it. A {@link BatchAbortedError}, so
 * code that re-runs aborted items handles it too; `stoppedBy` is the error that stopped the batch.
 */
export class BatchHaltedError extends BatchAbortedError {
  override name = 'BatchHaltedError';
  /** The batch-wide failure, as the item that met it got it. */
  readonly stoppedBy: PayinoutError;
  constructor(reference: string, stoppedBy: PayinoutError, why: string, todo: string) {
    super(
      reference,
      stoppedBy,
      `PayOut '${reference}' was not sent: the batch stopped before it because ${why}, which every PayOut of the batch would meet. ` +
        `Nothing was sent for it. ${todo} Then run the batch again: references already sent are recovered, never sent twice.`,
    );
    this.stoppedBy = stoppedBy;
  }
}

/**
 * The reference already belongs to a transaction with other details: nothing was sent. The
 * message names the field that differs, never a customer value.
 */
export class ReferenceConflictError extends PayinoutError {
  override name = 'ReferenceConflictError';
  readonly reference: string;
  /** The field that differs, e.g. 'amount' or 'customer_data.legal_doc'. */
  readonly field: string;
  /** The ticket of the transaction that holds the reference. */
  readonly ticket: string;
  constructor(init: { reference: string; field: string; ticket: string; detail: string }) {
    super(
      `Reference '${init.reference}' already exists (ticket ${init.ticket}) with a different ${init.field}${init.detail}; nothing was sent. ` +
        'A reference identifies one transaction: give this PayOut a new reference, or correct the row if the existing transaction is the one you meant.',
    );
    this.reference = init.reference;
    this.field = init.field;
    this.ticket = init.ticket;
  }
}

/**
 * An item whose create may have reached the service and which no lookup proves either way: the
 * outcome is unknown (a `ConnectionError` with `outcome: 'unknown'`, as a single create gives).
 */
export function unknownOutcome(reference: string, why: string, cause: unknown): ConnectionError {
  return new ConnectionError({
    message:
      `PayOut '${reference}': its create may have reached the service, but ${why}, so its outcome is unknown. ` +
      `Look it up with client.transactions.get('${reference}') (or run the batch again, which looks it up first) before sending it again.`,
    outcome: 'unknown',
    reference,
    cause,
  });
}
