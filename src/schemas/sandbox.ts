/** Sandbox confirm: POST /api/v1/sandbox/payin/confirm and /api/v1/sandbox/payout/confirm. */
import * as z from 'zod/mini';
import { SANDBOX_CONFIRM_STATUSES } from './catalog.js';
import { text } from './common.js';
import { responseSchema } from './kit.js';

/** The body of the sandbox confirm endpoints. */
export const SandboxConfirmParamsSchema = z.strictObject({
  /** Ticket, merchant reference, or an external reference (Bre-B key, cash reference, CLABE, payout tracking id). */
  transaction_id: text(),
  /** Enum name in uppercase (SPEI, BREB, BANK_TRANSFER…); portal labels are refused by the service. */
  payment_method: z
    .string()
    .check(
      z.regex(/^[A-Z0-9_]+$/, 'must be the uppercase enum name (e.g. BANK_TRANSFER), not a portal label'),
    ),
  /** The final status to set: APPROVED, REJECTED or EXPIRED (which ones a method supports: node_modules/payinout/docs/testing.md or https://github.com/payinout/payinout/blob/main/docs/testing.md). */
  status: z.enum(SANDBOX_CONFIRM_STATUSES),
});
/** What `client.sandbox.confirmPayIn()` and `confirmPayOut()` take. */
export type SandboxConfirmParams = z.input<typeof SandboxConfirmParamsSchema>;

/** data of a sandbox confirm answer. */
export const SandboxConfirmResultSchema = responseSchema((k) =>
  k.object({
    transaction_id: z.string(),
    payment_method: z.string(),
    status: k.oneOf(SANDBOX_CONFIRM_STATUSES),
  }),
);
/** The result of a sandbox confirm: `transaction_id`, `payment_method`, `status`. */
export type SandboxConfirmResult = z.infer<typeof SandboxConfirmResultSchema.tolerant>;
