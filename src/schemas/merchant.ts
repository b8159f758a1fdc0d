/** Merchant profile and balance: GET /api/v1/merchant/me and /api/v1/merchant/balance. */
import * as z from 'zod/mini';
import { responseSchema } from './kit.js';

/** data of GET /api/v1/merchant/me. */
export const MerchantProfileSchema = responseSchema((k) =>
  k.object({
    name: z.string(),
    /** Tax ID. */
    nit: z.string(),
    email: z.string(),
    currency: z.string(),
    /** Current e-wallet balance. */
    wallet: k.amount,
  }),
);
/** The merchant profile returned by `client.merchant.getProfile()`. */
export type MerchantProfile = z.infer<typeof MerchantProfileSchema.tolerant>;

/**
 * The spec also lists merchant attributes on this endpoint without their field names;
 * they are kept as unknown keys, in strict mode too (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md).
 */
export const MerchantBalanceSchema = responseSchema((k) =>
  k.openObject({
    currency: z.string(),
    /** Raw balance; may have a decimal part. */
    balance: k.amount,
    /** e.g. 'COP 1.234.567,89': '.' thousands, ',' decimals. */
    balance_formatted: z.string(),
  }),
);
/** The balance returned by `client.merchant.getBalance()`. */
export type MerchantBalance = z.infer<typeof MerchantBalanceSchema.tolerant>;
