/** Shared fixtures for the simulator suites: raw calls through the handle() core. */
import {
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  type SandboxResponse,
} from '../../src/testing/index.js';

export const CUSTOMER_CO = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC' as const,
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gomez',
};

export const CUSTOMER_PE = {
  ...CUSTOMER_CO,
  legal_doc_type: 'DNI',
  phone_code: '51',
  phone_number: '987654321',
};
export const CUSTOMER_MX = {
  ...CUSTOMER_CO,
  legal_doc_type: 'INE',
  phone_code: '52',
  phone_number: '5512345678',
};

/** A valid test CLABE (check digit computed per the 3-7-1 rule). */
export const VALID_CLABE = '002010077777777771';

export const IPN = 'http://127.0.0.1:9/ipn';

export function basic(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

export interface Caller {
  sandbox: Sandbox;
  call(
    method: string,
    path: string,
    body?: unknown,
    merchant?: string,
  ): SandboxResponse & { json: Record<string, unknown> };
  post(path: string, body?: unknown, merchant?: string): SandboxResponse & { json: Record<string, unknown> };
  get(path: string, merchant?: string): SandboxResponse & { json: Record<string, unknown> };
}

/** A sandbox (webhooks recorded, not sent) and calls as one of its merchants (default demo-co). */
export function setup(options: SandboxOptions = {}): Caller {
  const sandbox = createSandbox({ webhooks: false, ...options });
  const call: Caller['call'] = (method, path, body, merchant = 'demo-co') => {
    const m = sandbox.merchants.find((x) => x.username === merchant)!;
    const response = sandbox.handle({
      method,
      path,
      headers: {
        authorization: basic(m.username, m.password),
        'token-top': m.token,
        'content-type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { ...response, json: response.body as Record<string, unknown> };
  };
  return {
    sandbox,
    call,
    post: (path, body, merchant) => call('POST', path, body, merchant),
    get: (path, merchant) => call('GET', path, undefined, merchant),
  };
}

let counter = 0;
export const ref = (prefix = 'ref') => `${prefix}-${++counter}-${Date.now()}`;

export function payIn(overrides: Record<string, unknown> = {}) {
  return {
    reference: ref('in'),
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'Order',
    customer_data: CUSTOMER_CO,
    ipn_url: IPN,
    ...overrides,
  };
}

export function payOut(overrides: Record<string, unknown> = {}) {
  return {
    reference: ref('out'),
    amount: 10_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BANK_TRANSFER',
    ipn_url: IPN,
    customer_data: {
      ...CUSTOMER_CO,
      bank: 'BANCOLOMBIA',
      account_number: '1234567890',
      account_type: 'AHORRO',
    },
    ...overrides,
  };
}

export const data = (r: { json: Record<string, unknown> }) => r.json.data as Record<string, unknown>;
