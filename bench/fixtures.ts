/** Realistic request and answer bodies of the service (spec examples), shared by the bench files. */

export const CREDENTIALS = { username: 'bench-user', password: 'bench-Secret-123', token: 'tok-Bench-456' };

export const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC' as const,
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana.perez@example.com',
  full_name: 'Ana Pérez',
};

export const payinParams = {
  reference: 'order-1001',
  amount: 50_000,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BREB',
  description: 'Order 1001',
  customer_data: customer,
  ipn_url: 'https://merchant.example.com/webhooks/payinout',
  redirect_url: 'https://merchant.example.com/thanks',
} as const;

const TICKET = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

export const payinEnvelope = JSON.stringify({
  code: '01',
  status: 'SUCCESS',
  message: 'PayIn created',
  data: {
    ticket: TICKET,
    date: '2026-11-21 10:00:00',
    payment_url: `https://checkout.example.com/p/${TICKET}`,
    payment_information: { breb_key: '@TIENDA123' },
    transaction: {
      reference: payinParams.reference,
      amount: payinParams.amount,
      currency: 'COP',
      payment_method: 'BREB',
      redirect_url: payinParams.redirect_url,
      ipn_url: payinParams.ipn_url,
      description: payinParams.description,
    },
  },
});

export const transactionEnvelope = JSON.stringify({
  code: '01',
  status: 'SUCCESS',
  message: 'Transaction found',
  data: [
    {
      ticket: TICKET,
      reference: payinParams.reference,
      amount: '50000.00',
      currency: 'COP',
      type_transaction: 'PAYIN',
      customer: { ...customer, legal_doc: 1020304050, phone_number: 3001234567 },
      status: 'PENDING',
      response_message: 'Pending payment',
      date: '2026-11-21 10:00:00',
      cus: '',
      metadata: [],
    },
  ],
});

export const LOOKUP_ID = TICKET;

/** What stripe-node sends and gets in the same bench: a customer, about the size of a PayIn. */
export const stripeCustomerParams = {
  email: customer.email,
  name: customer.full_name,
  phone: `+${customer.phone_code}${customer.phone_number}`,
  description: payinParams.description,
  metadata: { reference: payinParams.reference, legal_doc: customer.legal_doc },
};

export const stripeCustomer = JSON.stringify({
  id: 'cus_Bench0001',
  object: 'customer',
  address: null,
  balance: 0,
  created: 1_795_000_000,
  currency: null,
  default_source: null,
  delinquent: false,
  description: payinParams.description,
  email: customer.email,
  invoice_prefix: 'BENCH01',
  invoice_settings: { custom_fields: null, default_payment_method: null, footer: null },
  livemode: false,
  metadata: { reference: payinParams.reference, legal_doc: customer.legal_doc },
  name: customer.full_name,
  phone: `+${customer.phone_code}${customer.phone_number}`,
  preferred_locales: [],
  shipping: null,
  tax_exempt: 'none',
});
