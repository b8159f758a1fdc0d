/** Shared by the response property suites: every method, a fetch that answers what the test says. */
import { PaymentClient } from '../../src/index.js';

export interface Answer {
  status: number;
  body: string;
  headers: Record<string, string>;
}

/** Statuses whose Response cannot carry a body. */
const NULL_BODY = new Set([204, 205, 304]);

export function answeringClient() {
  const state: { next: Answer; lookups404: boolean } = {
    next: { status: 200, body: '', headers: {} },
    lookups404: false,
  };
  const fetchStub: typeof fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    // During a create's reconciliation the lookup answers "not found": the create's own answer is under test.
    if (state.lookups404 && url.includes('/api/v1/transaction/')) {
      return new Response(JSON.stringify({ code: '00', status: 'ERROR', error: 'NOT_FOUND' }), {
        status: 404,
      });
    }
    const { status, body, headers } = state.next;
    return new Response(NULL_BODY.has(status) ? null : body, { status, headers });
  };
  return { client: stubbedClient(fetchStub), state };
}

/** A client whose every request goes to `fetchStub`: no network, no retries. */
export function stubbedClient(fetchStub: typeof fetch): PaymentClient {
  return new PaymentClient({
    username: 'u',
    password: 'p',
    token: 't',
    baseUrl: 'https://api.example.test',
    maxRetries: 0,
    fetch: fetchStub,
  });
}

const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC' as const,
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana',
};
const payin = {
  reference: 'r-1',
  amount: 50_000,
  currency: 'COP' as const,
  country: 'CO' as const,
  payment_method: 'BREB' as const,
  description: 'x',
  customer_data: customer,
  ipn_url: 'https://m.example/ipn',
  redirect_url: 'https://m.example/back',
};
const payout = {
  payment_method: 'BANK_TRANSFER' as const,
  reference: 'r-2',
  amount: 20_000,
  currency: 'COP' as const,
  country: 'CO' as const,
  ipn_url: 'https://m.example/ipn',
  customer_data: { ...customer, bank: 'BANCOLOMBIA', account_number: '123', account_type: 'AHORRO' as const },
};
const created = {
  ticket: 'T-1',
  date: '2025-01-15 10:30:00',
  payment_url: 'https://pay.example/x',
  transaction: { reference: 'r-1', amount: 50_000, currency: 'COP', payment_method: 'BREB' },
};
const transaction = {
  ticket: 'T-1',
  reference: 'r-1',
  amount: '50000.00',
  currency: 'COP',
  status: 'APPROVED',
  date: '2025-01-15 10:30:00',
  customer: { ...customer, phone_number: 3001234567 },
  metadata: [],
};

export interface MethodUnderTest {
  name: string;
  create: boolean;
  /** A valid `data` for this method, to build near-valid answers from. */
  data: unknown;
  call(client: PaymentClient): Promise<unknown>;
}

export const METHODS: MethodUnderTest[] = [
  { name: 'payin.create', create: true, data: created, call: (c) => c.payin.create(payin) },
  { name: 'payin.createLegacy', create: true, data: created, call: (c) => c.payin.createLegacy(payin) },
  { name: 'payout.create', create: true, data: created, call: (c) => c.payout.create(payout) },
  {
    name: 'payin.listPseBanks',
    create: false,
    data: [
      { code: '1007', name: 'Banka' },
      { bank_code: 1022, bank_name: 'Other' },
    ],
    call: (c) => c.payin.listPseBanks(),
  },
  {
    name: 'merchant.getProfile',
    create: false,
    data: { name: 'Shop', nit: '9', email: 's@x.co', currency: 'COP', wallet: 1 },
    call: (c) => c.merchant.getProfile(),
  },
  {
    name: 'merchant.getBalance',
    create: false,
    data: { currency: 'COP', balance: 1.5, balance_formatted: 'COP 1,50' },
    call: (c) => c.merchant.getBalance(),
  },
  { name: 'transactions.get', create: false, data: transaction, call: (c) => c.transactions.get('r-1') },
  {
    name: 'sandbox.confirmPayIn',
    create: false,
    data: { transaction_id: 'T-1', payment_method: 'QR', status: 'APPROVED' },
    call: (c) => c.sandbox.confirmPayIn({ transaction_id: 'T-1', payment_method: 'QR', status: 'APPROVED' }),
  },
  {
    name: 'sandbox.confirmPayOut',
    create: false,
    data: { transaction_id: 'T-1', payment_method: 'SPEI', status: 'REJECTED' },
    call: (c) =>
      c.sandbox.confirmPayOut({ transaction_id: 'T-1', payment_method: 'SPEI', status: 'REJECTED' }),
  },
];
