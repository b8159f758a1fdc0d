/** Valid inputs of each schema, the seeds test/property/fast-parse.test.ts mutates. */

const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Pérez',
};
const urls = { ipn_url: 'https://m.example/ipn', redirect_url: 'https://m.example/back' };
const payin = { reference: 'o-1', description: 'Order 1', ...urls };

const PAYIN = [
  {
    ...payin,
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    customer_data: customer,
  },
  {
    ...payin,
    amount: 15_000.5,
    currency: 'COP',
    country: 'CO',
    payment_method: 'PSE',
    customer_data: { ...customer, legal_doc: 1020304050, bank: '1007', person_type: 'NATURAL' },
  },
  {
    ...payin,
    amount: 120,
    currency: 'PEN',
    country: 'PE',
    payment_method: 'QR',
    customer_data: { ...customer, legal_doc_type: 'DNI', phone_number: 987654321 },
  },
  {
    reference: ' o-4 ',
    amount: 500,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    description: 'x',
    customer_data: { ...customer, legal_doc_type: 'INE' },
    expiration_time: 30,
  },
  { ...payin, amount: 9, currency: 'GTQ', country: 'GT', payment_method: 'ANY', customer_data: customer },
  { ...payin, amount: 9, currency: 'HNL', country: 'HN', payment_method: 'ANY', customer_data: customer },
];

const payoutCustomer = {
  ...customer,
  bank: 'BANCOLOMBIA',
  account_number: '12345678901',
  account_type: 'AHORRO',
};
const PAYOUT = [
  {
    payment_method: 'BANK_TRANSFER',
    reference: 'p-1',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    ipn_url: urls.ipn_url,
    customer_data: payoutCustomer,
  },
  {
    payment_method: 'SPEI',
    reference: 'p-2',
    amount: 300,
    currency: 'MXN',
    country: 'MX',
    ipn_url: urls.ipn_url,
    customer_data: {
      ...customer,
      bank: 'STP',
      account_number: '002010077777777771',
      clabe_number: '002010077777777771',
      account_type: 'CLABE',
    },
  },
  {
    payment_method: 'BANK_TRANSFER',
    reference: 'p-3',
    amount: 10,
    currency: 'PEN',
    country: 'PE',
    ipn_url: urls.ipn_url,
    customer_data: { ...payoutCustomer, legal_doc_type: 'DNI', account_type: 'WALLET' },
    metadata: { order: 1, tags: ['a'] },
  },
  {
    payment_method: 'ANY',
    reference: 'p-4',
    amount: 10,
    currency: 'HNL',
    country: 'HN',
    ipn_url: urls.ipn_url,
    customer_data: { ...payoutCustomer, legal_doc_type: 'ID', account_type: 'ANY' },
  },
];

const CONFIRM = [
  { transaction_id: 'T-1', payment_method: 'QR', status: 'EXPIRED' },
  { transaction_id: 'T-2', payment_method: 'BANK_TRANSFER', status: 'REJECTED' },
  { transaction_id: ' T-3 ', payment_method: 'BREB', status: 'APPROVED' },
];

/** By operation id (src/api/operations.ts). */
export const REQUEST_SAMPLES: Record<string, unknown[]> = {
  'payin.create': PAYIN,
  'payin.createLegacy': [
    { ...PAYIN[0], amount: 50_000 },
    { ...PAYIN[1], amount: 15_000 },
    { ...PAYIN[2], description: undefined },
  ],
  'payout.create': PAYOUT,
  'transactions.getByPost': [{ ticket: 'T-1' }, { ticket: ' order-7 ' }],
  'sandbox.confirmPayIn': CONFIRM,
  'sandbox.confirmPayOut': CONFIRM,
};

const created = {
  ticket: 'T-1',
  date: '2025-01-15 10:30:00',
  payment_url: 'https://pay.example/x',
  payment_information: {
    breb_key: '@SHOP',
    clabe: 2010077777777771,
    push_sent: true,
    amount: '150.50',
    other: 1,
  },
  transaction: {
    reference: 'o-1',
    amount: 50_000,
    currency: 'COP',
    payment_method: 'BREB',
    ...urls,
    description: 'Order 1',
  },
};
const transaction = {
  ticket: 'T-1',
  reference: 'o-1',
  amount: '50000.00',
  currency: 'COP',
  type_transaction: 'PAYIN',
  customer: { ...customer, legal_doc: 1020304050, phone_number: 3001234567, email: null },
  status: 'APPROVED',
  response_message: null,
  date: '2025-01-15 10:30:00',
  cus: '123',
  payment_method: 'PSE',
  metadata: { order: 1 },
};

/** By operation id, and the envelope, webhook and error bodies. */
export const RESPONSE_SAMPLES: Record<string, unknown[]> = {
  envelope: [
    { code: '01', status: 'SUCCESS', message: 'ok', data: created },
    { code: '00', status: 'ERROR', error: 'VALIDATION_ERROR', message: 'bad' },
  ],
  'payin.create': [created, { ticket: 'T-2', date: 'd', transaction: created.transaction }],
  'payin.createLegacy': [created],
  'payin.listPseBanks': [
    [
      { code: '1007', name: 'Banka' },
      { bank_code: 1022, bank_name: 'Other' },
    ],
    { banks: [{ financial_institution_code: '1', financial_institution_name: 'B' }] },
  ],
  'payout.create': [
    {
      ticket: 'T-1',
      date: 'd',
      transaction: { reference: 'p', amount: 1, currency: 'COP', payment_method: 'X' },
    },
  ],
  'merchant.getProfile': [{ name: 'Shop', nit: '9', email: 's@x.co', currency: 'COP', wallet: 1 }],
  'merchant.getBalance': [{ currency: 'COP', balance: '1.50', balance_formatted: 'COP 1,50', extra: [1] }],
  'transactions.get': [transaction, { ...transaction, metadata: [], customer: undefined, cus: undefined }],
  'sandbox.confirmPayIn': [{ transaction_id: 'T-1', payment_method: 'QR', status: 'APPROVED' }],
  webhook: [
    {
      top_status: 'APPROVED',
      top_ticket: 123,
      top_reference: 'o-1',
      top_amount: '50000.00',
      top_currency: 'COP',
      top_user: transaction.customer,
      top_card: { bin: 411111, lastFourDigits: '1111', brand: 'VISA' },
    },
  ],
  error: [{ code: '00', status: 'ERROR', error: 'ALREADY_FINAL', message: 'final' }],
};
