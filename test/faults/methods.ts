/** Every client method, described once for the fault suites: how to call it and what it sends. */
import type {
  PayInCreateParamsFor,
  PaymentClient,
  PayOutCreateParamsFor,
  RequestOptions,
} from '../../src/index.js';

export const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC' as const,
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Pérez',
};

let sequence = 0;
/** A reference no other test uses (tests run concurrently against their own servers anyway). */
export const nextReference = (prefix: string) => `${prefix}-${++sequence}-${Date.now()}`;

export const payinParams = (reference: string) =>
  ({
    reference,
    amount: 50_000,
    currency: 'COP' as const,
    country: 'CO' as const,
    payment_method: 'BREB',
    description: 'Order',
    customer_data: customer,
    ipn_url: 'https://merchant.example.com/ipn',
    redirect_url: 'https://merchant.example.com/back',
  }) satisfies PayInCreateParamsFor<'CO'>;

export const payoutParams = (reference: string) =>
  ({
    payment_method: 'BANK_TRANSFER',
    reference,
    amount: 20_000,
    currency: 'COP' as const,
    country: 'CO' as const,
    ipn_url: 'https://merchant.example.com/ipn',
    customer_data: {
      ...customer,
      bank: 'BANCOLOMBIA',
      account_number: '12345678901',
      account_type: 'AHORRO',
    },
  }) satisfies PayOutCreateParamsFor<'CO'>;

export interface CreateMethod {
  name: string;
  path: string;
  call(client: PaymentClient, reference: string, options?: RequestOptions): Promise<unknown>;
}

export const CREATE_METHODS: CreateMethod[] = [
  {
    name: 'payin.create',
    path: '/api/v2/payin',
    call: (client, reference, options) => client.payin.create(payinParams(reference), options),
  },
  {
    name: 'payin.createLegacy',
    path: '/api/v1/payin',
    call: (client, reference, options) => client.payin.createLegacy(payinParams(reference), options),
  },
  {
    name: 'payout.create',
    path: '/api/v1/payout',
    call: (client, reference, options) => client.payout.create(payoutParams(reference), options),
  },
];

export interface SafeMethod {
  name: string;
  /** 'METHOD /path' as the server records it. */
  request: string;
  call(client: PaymentClient, options?: RequestOptions): Promise<unknown>;
}

/** A transaction the server is seeded with, for transactions.get. */
export const SEEDED = 'seed-ref';

export const SAFE_METHODS: SafeMethod[] = [
  {
    name: 'payin.listPseBanks',
    request: 'GET /api/v1/pse/banks',
    call: (client, options) => client.payin.listPseBanks(options),
  },
  {
    name: 'merchant.getProfile',
    request: 'GET /api/v1/merchant/me',
    call: (client, options) => client.merchant.getProfile(options),
  },
  {
    name: 'merchant.getBalance',
    request: 'GET /api/v1/merchant/balance',
    call: (client, options) => client.merchant.getBalance(options),
  },
  {
    name: 'transactions.get',
    request: `GET /api/v1/transaction/${SEEDED}`,
    call: (client, options) => client.transactions.get(SEEDED, options),
  },
  {
    name: 'sandbox.confirmPayIn',
    request: 'POST /api/v1/sandbox/payin/confirm',
    call: (client, options) =>
      client.sandbox.confirmPayIn(
        { transaction_id: SEEDED, payment_method: 'QR', status: 'APPROVED' },
        options,
      ),
  },
  {
    name: 'sandbox.confirmPayOut',
    request: 'POST /api/v1/sandbox/payout/confirm',
    call: (client, options) =>
      client.sandbox.confirmPayOut(
        { transaction_id: SEEDED, payment_method: 'BANK_TRANSFER', status: 'APPROVED' },
        options,
      ),
  },
];

/** Settles a promise into a value or an error, for assertions on either. */
export async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}
