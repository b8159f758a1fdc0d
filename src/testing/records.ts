/**
 * How stored records are shown back: the customer projection of the search answer's `customer`
 * and the webhook's `top_user` (one shape: schemas' CustomerRecordSchema), and the search answer.
 */
import type * as z from 'zod/mini';
import type { CustomerRecordSchema } from '../schemas/common.js';
import type { TransactionSchema } from '../schemas/transaction.js';
import { formatTimestamp } from './clock.js';
import type { SandboxTransaction, StoredCustomer } from './types.js';

/** The customer as the service sends it back (guide "Transaction (PayIn or PayOut)"). */
export type PublicCustomer = z.input<typeof CustomerRecordSchema.tolerant>;
/** A transaction as the search answer carries it on the wire. */
export type TransactionAnswer = z.input<typeof TransactionSchema.tolerant>;

/** The six documented customer fields, nothing of the destination account. */
export function publicCustomer(c: StoredCustomer): PublicCustomer {
  const { legal_doc_type, legal_doc, phone_code, phone_number, email, full_name } = c;
  return { legal_doc_type, legal_doc, phone_code, phone_number, email, full_name };
}

/** The search answer's fields (guide "Transaction (PayIn or PayOut)"); nothing else, so strict clients pass. */
export function describeTransaction(transaction: SandboxTransaction): TransactionAnswer {
  const out: TransactionAnswer = {
    ticket: transaction.ticket,
    reference: transaction.reference,
    amount: transaction.amount,
    currency: transaction.currency,
    type_transaction: transaction.type,
    customer: publicCustomer(transaction.customer),
    status: transaction.status,
    response_message: transaction.responseMessage,
    date: formatTimestamp(transaction.createdAt),
    metadata: transaction.metadata ?? [],
    // Not in the guide's field list (docs/spec-gaps.md); sent so a lookup can tell which method to confirm with.
    payment_method: transaction.payment_method,
  };
  if (transaction.cus !== undefined) out.cus = transaction.cus;
  return out;
}
