/**
 * The PayOuts the queue and bulk benches send: a CO bank transfer, its reference unique per run
 * (`prefix` keeps the two benches' references apart on a shared simulator).
 */
import { customer } from './fixtures.js';

export const payout = (run: string, i: number, prefix = 'bq') => ({
  payment_method: 'BANK_TRANSFER' as const,
  reference: `${prefix}-${run}-${i}`,
  amount: 10_000 + (i % 1000),
  currency: 'COP' as const,
  country: 'CO' as const,
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  customer_data: {
    ...customer,
    bank: 'BANCOLOMBIA',
    account_number: String(10_000_000_000 + i),
    account_type: 'AHORRO' as const,
  },
});
