/** Transaction lookup: GET (or POST) /api/v1/transaction/{ticket}. */
import * as z from 'zod';
import { TRANSACTION_STATUSES } from './catalog.js';
import { stringish } from './common.js';
import { responseSchema } from './kit.js';

/** The customer object of a lookup; all strings in the guide, numbers in a sample. */
export const TransactionCustomerSchema = responseSchema((k) =>
  k.object({
    legal_doc_type: z.string().optional(),
    legal_doc: stringish().optional(),
    phone_code: stringish().optional(),
    phone_number: stringish().optional(),
    email: z.string().optional(),
    full_name: z.string().optional(),
  }),
);

export const TransactionSchema = responseSchema((k) =>
  k.object({
    ticket: z.string(),
    reference: z.string(),
    amount: k.amount,
    currency: z.string(),
    /** PAYIN or PAYOUT per the field description; samples show descriptive words. */
    type_transaction: z.string().optional(),
    customer: (k.strict ? TransactionCustomerSchema.strict() : TransactionCustomerSchema.tolerant).optional(),
    status: k.oneOf(TRANSACTION_STATUSES),
    response_message: z.string().nullish(),
    /** 'YYYY-MM-DD HH:MM:SS'. */
    date: z.string(),
    cus: z.string().nullish(),
    metadata: z.union([z.array(z.unknown()), z.record(z.string(), z.unknown())]).nullish(),
  }),
);
export type Transaction = z.infer<typeof TransactionSchema.tolerant>;
export type TransactionCustomer = z.infer<typeof TransactionCustomerSchema.tolerant>;
