/** The ways a batch item fails that no single call produces. */
import { PayinoutError } from '../core/errors.js';

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

/** The lookup of this id was not made, or was cancelled, because the caller aborted the batch. */
export class LookupAbortedError extends PayinoutError {
  override name = 'LookupAbortedError';
  /** The ticket or reference that was not looked up. */
  readonly id: string;
  constructor(id: string, reason: unknown) {
    super(`Transaction '${id}' was not looked up: the lookups were aborted. Look it up again.`, {
      cause: reason,
    });
    this.id = id;
  }
}

/**
 * The lookup of this id was not made because an earlier one met a failure every lookup would meet
 * (the credentials refused, a Retry-After beyond 60 s): the lookups stop instead of sending one
 * refused request per id.
 */
export class LookupHaltedError extends LookupAbortedError {
  override name = 'LookupHaltedError';
  /** The failure that stopped the lookups, as the lookup that met it got it. */
  readonly stoppedBy: PayinoutError;
  constructor(id: string, stoppedBy: PayinoutError, why: string, todo: string) {
    super(id, stoppedBy);
    this.message = `Transaction '${id}' was not looked up: the lookups stopped because ${why}, which every lookup would meet. ${todo} Then look it up again.`;
    this.stoppedBy = stoppedBy;
  }
}
