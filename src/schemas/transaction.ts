/** Transaction lookup: GET (or POST) /api/v1/transaction/{ticket}. */
import * as z from 'zod/mini';
import { TRANSACTION_STATUSES } from './catalog.js';
import { CustomerRecordSchema } from './common.js';
import { responseSchema } from './kit.js';

/** The customer object of a lookup (the same record as a webhook's top_user). */
export const TransactionCustomerSchema = CustomerRecordSchema;

/** A PayIn or PayOut as GET /api/v1/transaction/{id} returns it. */
export const TransactionSchema = responseSchema((k) =>
  k.object({
    ticket: z.string(),
    reference: z.string(),
    amount: k.amount,
    currency: z.string(),
    /**
     * PAYIN or PAYOUT per the field description. Typed as those two, so `=== 'PAYINN'` does not
     * compile; read as any string in both modes because the spec's samples show descriptive words.
     */
    type_transaction: z.optional(k.typed<'PAYIN' | 'PAYOUT'>()),
    customer: z.optional(k.nested(TransactionCustomerSchema)),
    /** CREATED, PENDING, APPROVED, REJECTED, DECLINED or EXPIRED (spec "States and transitions"). */
    status: k.oneOf(TRANSACTION_STATUSES),
    response_message: z.nullish(z.string()),
    /** 'YYYY-MM-DD HH:MM:SS'. */
    date: z.string(),
    cus: z.nullish(z.string()),
    /**
     * The method it was created with (PSE, BREB, CARD, …). The guide's list of search fields does
     * not name it; read where the answer carries it (the simulator does), which lets `payinout
     * confirm` use the transaction's own method.
     */
    payment_method: z.optional(z.string()),
    metadata: z.nullish(z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())])),
  }),
);
/** A transaction as `client.transactions.get()` returns it. */
export type Transaction = z.infer<typeof TransactionSchema.tolerant>;
/** The `customer` of a transaction. */
export type TransactionCustomer = z.infer<typeof TransactionCustomerSchema.tolerant>;
