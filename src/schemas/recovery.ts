/**
 * What a create result carries when the SDK recovered it by looking the reference up after an
 * unreliable answer (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md). Declared once, as a zod schema, so the result types
 * stay derived from zod: `PayInCreated & RecoveryFields`.
 */
import * as z from 'zod/mini';
import { TransactionSchema } from './transaction.js';

/** The fields a create result carries when it was recovered by reference. */
export const RecoveryFieldsSchema = z.object({
  /**
   * `true` when the create's own answer was lost (connection reset, timeout, 5xx…) and the result
   * was rebuilt from `GET /api/v1/transaction/{reference}`. Absent on a normal answer. Fields only
   * the create answer carries (`payment_url`, `payment_information`) are then absent.
   */
  recovered: z.optional(z.literal(true)),
  /** The looked-up transaction the recovered result was built from (non-enumerable). */
  recoveredTransaction: z.optional(TransactionSchema.tolerant),
});
/** `recovered` and `recoveredTransaction` (see {@link RecoveryFieldsSchema}). */
export type RecoveryFields = z.infer<typeof RecoveryFieldsSchema>;

/** A create result that may have been recovered by reference. */
export type Recoverable<T> = T & RecoveryFields;
