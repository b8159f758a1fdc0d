/** The PayOuts the queue bench enqueues: a CO bank transfer, its reference unique per run. */
import { customer } from './fixtures.js';

export const payout = (run: string, i: number) => ({
  payment_method: 'BANK_TRANSFER' as const,
  reference: `bq-${run}-${i}`,
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
