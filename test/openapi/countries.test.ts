/**
 * The document against answers for every country (CO, PE, MX, GT, HN), from the simulator and from
 * an independent fake written from the guide alone (./fake-service.ts). Where the guide's "Country
 * reference" says "Not shown" (document types of MX, GT and HN; methods and account types of GT
 * and HN) an answer may carry any value, and a `top_user` object must validate: before, the
 * document closed `legal_doc_type` to the CO/PE values and refused both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoMerchants, type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { basic, VALID_CLABE } from '../testing/helpers.js';
import { FAKE_COUNTRIES, type FakeCountry, type FakeService, startFakeService } from './fake-service.js';
import { type Json, validateAnswer, validateWebhook } from './validate.js';

const COUNTRIES = Object.keys(FAKE_COUNTRIES) as FakeCountry[];

/** What the simulator is sent per country: the guide's values, a plausible one where it shows none. */
const SIMULATED: Record<
  FakeCountry,
  { payin: string; payout: string; document: string; account: string; bank: string }
> = {
  CO: { payin: 'BREB', payout: 'BANK_TRANSFER', document: 'CC', account: 'AHORRO', bank: 'BANCOLOMBIA' },
  PE: { payin: 'QR', payout: 'BANK_TRANSFER', document: 'DNI', account: 'WALLET', bank: 'BCP' },
  MX: { payin: 'SPEI', payout: 'SPEI', document: 'CURP', account: 'CLABE', bank: 'STP' },
  GT: { payin: 'DEPOSITO_BANCARIO', payout: 'ACH', document: 'DPI', account: 'MONETARIA', bank: 'BANRURAL' },
  HN: { payin: 'TIGO_MONEY', payout: 'ACH', document: 'RTN', account: 'CHEQUES', bank: 'BANPAIS' },
};
type Values = (typeof SIMULATED)[FakeCountry];
const CONFIRMABLE = ['BREB', 'QR', 'SPEI'];

let sequence = 0;
function bodies(country: FakeCountry, values: Values) {
  const { currency, amount } = FAKE_COUNTRIES[country];
  const customer = {
    legal_doc: '80012345',
    legal_doc_type: values.document,
    phone_code: '52',
    phone_number: '5512345678',
    email: 'cliente@example.com',
    full_name: 'María López',
  };
  const common = { amount: Math.round(amount), currency, country, ipn_url: 'http://127.0.0.1:9/ipn' };
  const payin = {
    ...common,
    reference: `oa-in-${country}-${++sequence}`,
    payment_method: values.payin,
    description: 'Order',
    customer_data: customer,
  };
  const account =
    country === 'MX'
      ? { account_number: VALID_CLABE, clabe_number: VALID_CLABE }
      : { account_number: '1234567890' };
  const payout = {
    ...common,
    reference: `oa-out-${country}-${++sequence}`,
    payment_method: values.payout,
    customer_data: { ...customer, ...account, bank: values.bank, account_type: values.account },
  };
  return { payin, payout };
}

type Call = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Json }>;

function caller(url: string, headers: Record<string, string>): Call {
  return async (method, path, body) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  };
}

/**
 * Creates a PayIn, runs `between` (the simulator's confirm, which funds the balance a PayOut
 * needs), creates a PayOut, looks both up, and checks every answer against the document.
 */
async function createAndLookUp(
  call: Call,
  country: FakeCountry,
  values: Values,
  between = async (_: string) => {},
) {
  const { payin, payout } = bodies(country, values);
  const createdIn = await call('POST', '/api/v2/payin', payin);
  expect(createdIn.status, JSON.stringify(createdIn.body)).toBe(200);
  const ticket = createdIn.body.data.ticket as string;
  await between(ticket);
  const createdOut = await call('POST', '/api/v1/payout', payout);
  expect(createdOut.status, JSON.stringify(createdOut.body)).toBe(200);
  const foundIn = await call('GET', `/api/v1/transaction/${ticket}`);
  const foundOut = await call('GET', `/api/v1/transaction/${createdOut.body.data.ticket}`);
  expect(validateAnswer('payin.create', createdIn.status, createdIn.body)).toStrictEqual([]);
  expect(validateAnswer('payout.create', createdOut.status, createdOut.body)).toStrictEqual([]);
  for (const found of [foundIn, foundOut]) {
    expect(validateAnswer('transactions.get', found.status, found.body)).toStrictEqual([]);
    expect(found.body.data.customer.legal_doc_type).toBe(values.document);
  }
  return ticket;
}

describe('the simulator answers every country as the document says', () => {
  let server: SandboxServer;
  beforeAll(async () => {
    // Funded from the start: GT and HN have no PayIn the sandbox confirm can approve.
    server = await startSandboxServer({
      webhooks: false,
      merchants: demoMerchants().map((m) => ({ ...m, balance: 1_000_000 })),
    });
  });
  afterAll(() => server.close());

  for (const country of COUNTRIES) {
    it(country, async () => {
      const lower = country.toLowerCase();
      const call = caller(server.url, {
        authorization: basic(`demo-${lower}`, `demo-${lower}-pass`),
        'token-top': `demo-${lower}-token`,
      });
      const ticket = await createAndLookUp(call, country, SIMULATED[country]);
      // The guide's sandbox confirm approves a PayIn of these methods only (GT and HN have none).
      if (!CONFIRMABLE.includes(SIMULATED[country].payin)) return;
      const body = { transaction_id: ticket, payment_method: SIMULATED[country].payin, status: 'APPROVED' };
      const confirmed = await call('POST', '/api/v1/sandbox/payin/confirm', body);
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(validateAnswer('sandbox.confirmPayIn', confirmed.status, confirmed.body)).toStrictEqual([]);
      const delivery = server.sandbox.deliveries.findLast((d) => JSON.parse(d.body).top_ticket === ticket);
      const event = JSON.parse(delivery!.body);
      expect(event.top_user).toEqual(
        expect.objectContaining({ legal_doc_type: SIMULATED[country].document }),
      );
      expect(validateWebhook(event)).toStrictEqual([]);
    });
  }
});

describe('an independent fake answers every country as the document says', () => {
  let fake: FakeService;
  beforeAll(async () => {
    fake = await startFakeService();
  });
  afterAll(() => fake.close());

  for (const country of COUNTRIES) {
    it(country, async () => {
      const values = { ...FAKE_COUNTRIES[country], bank: 'BANCO' };
      const ticket = await createAndLookUp(caller(fake.url, {}), country, values);
      for (const status of ['PENDING', 'APPROVED']) {
        expect(validateWebhook(fake.webhookFor(ticket, status)), status).toStrictEqual([]);
      }
    });
  }
});
