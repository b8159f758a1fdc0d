/** Valid requests and answers per the spec's examples, reused across suites. */
import type { PayInCreateParams, PayOutCreateParams } from '../../src/index.js';

export const customerCO = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC' as const,
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana.perez@example.com',
  full_name: 'Ana Pérez',
};

export const payinCO: PayInCreateParams = {
  reference: 'order-1001',
  amount: 50_000,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BREB',
  description: 'Order 1001',
  customer_data: customerCO,
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  redirect_url: 'https://merchant.example.com/thanks',
};

export const VALID_CLABE = '002010077777777771';

export const payoutCO: PayOutCreateParams = {
  payment_method: 'BANK_TRANSFER',
  reference: 'payout-2001',
  amount: 20_000,
  currency: 'COP',
  country: 'CO',
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  customer_data: {
    ...customerCO,
    bank: 'BANCOLOMBIA',
    account_number: '12345678901',
    account_type: 'AHORRO',
  },
};

export const payoutMX: PayOutCreateParams = {
  payment_method: 'SPEI',
  reference: 'payout-mx-1',
  amount: 1_500,
  currency: 'MXN',
  country: 'MX',
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  customer_data: {
    ...customerCO,
    legal_doc_type: 'RFC',
    phone_code: '52',
    bank: 'STP',
    account_number: VALID_CLABE,
    clabe_number: VALID_CLABE,
    account_type: 'CLABE',
  },
};

export const transaction = {
  ticket: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  reference: 'order-1001',
  amount: 50000,
  currency: 'COP',
  type_transaction: 'PAYIN',
  customer: { ...customerCO, legal_doc: 1020304050, phone_number: 3001234567 },
  status: 'PENDING',
  response_message: 'Pending payment',
  date: '2026-11-21 10:00:00',
  cus: '',
  metadata: [],
};
