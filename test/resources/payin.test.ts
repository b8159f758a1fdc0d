import { describe, expect, it } from 'vitest';
import { type PayInCreateParams, RequestValidationError } from '../../src/index.js';
import { payinCO } from '../helpers/fixtures.js';
import { answer, BASIC, CREDENTIALS, makeClient, ok, okEchoing, recorded, useMsw } from '../helpers/msw.js';

useMsw();

const created = {
  ticket: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  date: '2026-11-21 10:00:00',
  payment_information: { breb_key: '@TIENDA123' },
  transaction: {
    reference: 'order-1001',
    amount: 50000,
    currency: 'COP',
    payment_method: 'BREB' as const,
    redirect_url: payinCO.redirect_url,
    ipn_url: payinCO.ipn_url,
    description: 'Order 1001',
  },
};

describe('client.payin', () => {
  it('create: POST /api/v2/payin with the params as the JSON body', async () => {
    answer('post', '/api/v2/payin', () => ok(created));
    const result = await makeClient().payin.create(payinCO);
    const request = recorded[0]!;
    expect(request.method).toBe('POST');
    expect(request.url.pathname).toBe('/root/api/v2/payin');
    expect(request.headers.get('authorization')).toBe(BASIC);
    expect(request.headers.get('token-top')).toBe(CREDENTIALS.token);
    expect(request.body).toEqual(payinCO);
    expect(result).toEqual(created);
    expect(result.payment_information?.breb_key).toBe('@TIENDA123');
  });

  it('create: validation failure sends nothing and names each field', async () => {
    const bad = {
      ...payinCO,
      currency: 'PEN',
      payment_method: 'QR' as const,
      customer_data: { ...payinCO.customer_data, email: 'nope' },
    };
    const error = await makeClient()
      .payin.create(bad as typeof payinCO)
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(recorded).toHaveLength(0);
    // Field rules and cross-field rules (country ↔ currency, method per country) report together.
    expect(error.issues.map((i: { path: string }) => i.path).sort()).toEqual([
      'currency',
      'customer_data.email',
      'payment_method',
    ]);
    expect(error.message).toMatch(/currency: must be COP for country CO/);
  });

  it('create: validateRequests: false sends what it is given', async () => {
    answer('post', '/api/v2/payin', () => ok(created));
    const odd = { ...payinCO, payment_method: 'NEW_METHOD' };
    // A method the country table does not list: the type refuses it, validateRequests: false sends it.
    await makeClient({ validateRequests: false }).payin.create(odd as unknown as PayInCreateParams);
    expect(recorded[0]!.body).toEqual(odd);
  });

  it('createLegacy: POST /api/v1/payin', async () => {
    answer('post', '/api/v1/payin', okEchoing({ ...created, payment_url: 'https://checkout.test/p/1' }));
    const legacy = { ...payinCO, payment_method: 'PSE' as const, amount: 20_000 };
    const result = await makeClient().payin.createLegacy(
      legacy as Parameters<ReturnType<typeof makeClient>['payin']['createLegacy']>[0],
    );
    expect(recorded[0]!.method).toBe('POST');
    expect(recorded[0]!.url.pathname).toBe('/root/api/v1/payin');
    expect(recorded[0]!.body).toEqual(legacy);
    expect(result.payment_url).toBe('https://checkout.test/p/1');
  });

  it('listPseBanks: GET /api/v1/pse/banks, reading the aliases the spec leaves open', async () => {
    answer('get', '/api/v1/pse/banks', () =>
      ok([
        { code: '1022', name: 'Banka' },
        { financial_institution_code: 1007, financial_institution_name: 'Bancolombia' },
      ]),
    );
    const banks = await makeClient().payin.listPseBanks();
    expect(recorded[0]!.method).toBe('GET');
    expect(recorded[0]!.url.pathname).toBe('/root/api/v1/pse/banks');
    expect(recorded[0]!.body).toBeUndefined();
    expect(banks.map((b) => [b.code, b.name])).toEqual([
      ['1022', 'Banka'],
      ['1007', 'Bancolombia'],
    ]);
    expect(banks.lastResponse.status).toBe(200);
  });

  it('listPseBanks: accepts the list nested under data.banks', async () => {
    answer('get', '/api/v1/pse/banks', () => ok({ banks: [{ bank_code: '1022', bank_name: 'Banka' }] }));
    expect(await makeClient().payin.listPseBanks()).toMatchObject([{ code: '1022', name: 'Banka' }]);
  });
});
