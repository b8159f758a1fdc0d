// biome-ignore-all format: each "first line:" comment must stay right above the line it names.
/**
 * Mistakes in params built apart from the call, with the documented helpers (getting-started.md,
 * "Your first PayIn"): the FIRST line of each error names the field's own values, on the line of
 * the field, for the country written in the helper — not a country never used. Each
 * `// first line: TEXT` is what the error on the next line starts with; scripts/check-types.mjs
 * compiles this file against the packed package under TS 5.9 and TS 7 and compares. Nothing here runs.
 */
import type { PayInCreateParamsFor, PayInCustomerData, PayOutCreateParamsFor, PayOutCustomerData } from 'payinout';

export const customer: PayInCustomerData<'CO'> = {
  legal_doc: '1020304050',
  // first line: Type '"DNI"' is not assignable to type '"CC" | "CE" | "PPN"'.
  legal_doc_type: 'DNI',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gómez',
};

export const params: PayInCreateParamsFor<'CO'> = {
  reference: 'order-1002',
  amount: 150_000,
  // first line: Type '"PEN"' is not assignable to type '"COP"'.
  currency: 'PEN',
  country: 'CO',
  payment_method: 'EFECTY',
  description: 'Order 1002',
  customer_data: { ...customer, legal_doc_type: 'CC' },
};

export const payee: PayOutCustomerData<'MX'> = {
  legal_doc: 'GODE561231GR8',
  legal_doc_type: 'RFC',
  phone_code: '52',
  phone_number: '5512345678',
  email: 'pagos@example.mx',
  full_name: 'Proveedora SA',
  bank: 'STP',
  account_number: '646180157000000004',
  // first line: Type '"AHORRO"' is not assignable to type '"CLABE"'.
  account_type: 'AHORRO',
  clabe_number: '646180157000000004',
};

export const payout: PayOutCreateParamsFor<'MX'> = {
  reference: 'payout-1',
  amount: 1_000,
  currency: 'MXN',
  country: 'MX',
  // first line: Type '"BANK_TRANSFER"' is not assignable to type '"SPEI"'.
  payment_method: 'BANK_TRANSFER',
  ipn_url: 'https://shop.example/webhooks/payinout',
  customer_data: { ...payee, account_type: 'CLABE' },
};
