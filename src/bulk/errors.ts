/** The two ways a batch item fails that no single call produces. */
import { PayinoutError } from '../core/errors.js';

/** The batch's signal was aborted before this item was sent; nothing was sent for it. */
export class BatchAbortedError extends PayinoutError {
  override name = 'BatchAbortedError';
  readonly reference: string;
  constructor(reference: string, reason: unknown) {
    super(
      `PayOut '${reference}' was not sent: the batch was aborted before its create was sent. Run the batch again to send it; ` +
        'references that already exist are recovered, never sent twice.',
      { cause: reason },
    );
    this.reference = reference;
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
