/**
 * One supported-status rule: the client's check before sending and the simulator's answer agree
 * for every method of every country the guide lists, and together they reproduce the guide's
 * "Supported statuses" tables (written out literally below, independent of the code).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient, StatusNotSupportedError } from '../../src/index.js';
import { COUNTRIES, type CountryCode } from '../../src/schemas/catalog.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { basic, CUSTOMER_CO, CUSTOMER_MX, CUSTOMER_PE, VALID_CLABE } from './helpers.js';

/** The guide's tables: "direction country method" → the statuses marked yes. */
const GUIDE: Readonly<Record<string, readonly string[]>> = {
  'payin CO BREB': ['APPROVED', 'REJECTED'],
  'payin CO BREB_QR': ['APPROVED', 'REJECTED'],
  'payin CO EFECTY': ['APPROVED'],
  'payin PE QR': ['APPROVED', 'REJECTED', 'EXPIRED'],
  'payin MX SPEI': ['APPROVED'],
  'payout PE BANK_TRANSFER': ['APPROVED', 'REJECTED', 'EXPIRED'],
  'payout CO BANK_TRANSFER': ['APPROVED', 'REJECTED', 'EXPIRED'],
  'payout MX SPEI': ['APPROVED', 'REJECTED', 'EXPIRED'],
};
const STATUSES = ['APPROVED', 'REJECTED', 'EXPIRED'] as const;
const COUNTRY_LIST: CountryCode[] = ['CO', 'PE', 'MX'];

let server: SandboxServer;
const clients: Partial<Record<CountryCode, PaymentClient>> = {};
let n = 0;

beforeAll(async () => {
  const merchants = COUNTRY_LIST.map((country) => {
    const lower = country.toLowerCase();
    return {
      username: `rule-${lower}`,
      password: 'pw',
      token: `rule-${lower}-token`,
      country,
      balance: 10_000_000,
    };
  });
  // Auto-completing methods (NEQUI_PUSH, PSE with Banka) must not move before the confirm.
  server = await startSandboxServer({ webhooks: false, merchants, autoCompleteDelayMs: 3_600_000 });
  for (const m of merchants) {
    const { username, password, token } = m;
    clients[m.country] = new PaymentClient({ username, password, token, baseUrl: server.url, maxRetries: 0 });
  }
});
afterAll(() => server.close());

const CUSTOMERS = { CO: CUSTOMER_CO, PE: CUSTOMER_PE, MX: CUSTOMER_MX } as const;

async function create(direction: 'payin' | 'payout', country: CountryCode, method: string): Promise<string> {
  const client = clients[country]!;
  const base = { reference: `rule-${++n}`, amount: 50_000, currency: COUNTRIES[country].currency, country };
  if (direction === 'payin') {
    const created = await client.payin.create({
      ...base,
      payment_method: method,
      description: 'rule',
      customer_data: CUSTOMERS[country as 'CO'],
    } as Parameters<PaymentClient['payin']['create']>[0]);
    return created.ticket;
  }
  const account =
    country === 'MX'
      ? { bank: 'STP', account_number: VALID_CLABE, account_type: 'CLABE', clabe_number: VALID_CLABE }
      : {
          bank: country === 'PE' ? 'BCP' : 'BANCOLOMBIA',
          account_number: '1234567890',
          account_type: 'AHORRO',
        };
  const created = await client.payout.create({
    ...base,
    payment_method: method,
    ipn_url: 'https://shop.example/ipn',
    customer_data: { ...CUSTOMERS[country as 'CO'], ...account },
  } as Parameters<PaymentClient['payout']['create']>[0]);
  return created.ticket;
}

/** What happened: confirmed, refused by the client (nothing sent), or refused by the simulator. */
async function outcome(
  direction: 'payin' | 'payout',
  country: CountryCode,
  method: string,
  status: (typeof STATUSES)[number],
) {
  const ticket = await create(direction, country, method);
  const client = clients[country]!;
  const params = { transaction_id: ticket, payment_method: method, status } as const;
  try {
    await (direction === 'payin'
      ? client.sandbox.confirmPayIn(params)
      : client.sandbox.confirmPayOut(params));
    return 'confirmed';
  } catch (error) {
    expect(error).toBeInstanceOf(StatusNotSupportedError);
    const sent = Boolean((error as StatusNotSupportedError).attempts);
    if (!sent) {
      // The client said no: the simulator must say no to the same request.
      const m = server.sandbox.merchants.find((x) => x.country === country)!;
      const raw = await fetch(`${server.url}/api/v1/sandbox/${direction}/confirm`, {
        method: 'POST',
        headers: {
          authorization: basic(m.username, m.password),
          'token-top': m.token,
          'content-type': 'application/json',
        },
        body: JSON.stringify(params),
      });
      expect(await raw.json()).toMatchObject({ error: 'STATUS_NOT_SUPPORTED' });
    }
    return sent ? 'refused by the simulator' : 'refused before sending';
  }
}

describe('the supported-status rule, client and simulator', () => {
  it('confirms exactly what the guide tables allow, and the client never refuses what the simulator accepts', async () => {
    const confirmed: string[] = [];
    const refusedEarly: string[] = [];
    for (const direction of ['payin', 'payout'] as const) {
      for (const country of COUNTRY_LIST) {
        const info = COUNTRIES[country];
        for (const method of (direction === 'payin' ? info.payinMethods : info.payoutMethods) ?? []) {
          for (const status of STATUSES) {
            const what = await outcome(direction, country, method, status);
            const key = `${direction} ${country} ${method}`;
            if (what === 'confirmed') confirmed.push(`${key} ${status}`);
            if (what === 'refused before sending') refusedEarly.push(`${key} ${status}`);
          }
        }
      }
    }
    const expected = Object.entries(GUIDE).flatMap(([key, statuses]) => statuses.map((s) => `${key} ${s}`));
    expect(confirmed.sort()).toStrictEqual(expected.sort());
    // The client refuses the rows' "no" columns and the methods the guide excludes by name.
    expect(refusedEarly).toContain('payin CO BREB EXPIRED');
    expect(refusedEarly).toContain('payin CO CARD APPROVED');
    expect(refusedEarly).toContain('payin MX SPEI REJECTED');
    // A method no row names (testing.md): sent, and refused by the simulator, not before.
    expect(refusedEarly).not.toContain('payin PE PAGOEFECTIVO APPROVED');
    expect(confirmed).not.toContain('payin PE PAGOEFECTIVO APPROVED');
  });
});
