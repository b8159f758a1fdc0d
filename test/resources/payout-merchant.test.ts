import { describe, expect, it } from 'vitest';
import { payoutCO, payoutMX } from '../helpers/fixtures.js';
import { answer, BASIC, CREDENTIALS, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();

describe('client.payout', () => {
  it('create: POST /api/v1/payout with the params as the JSON body', async () => {
    const data = {
      ticket: 'a1b2',
      date: '2026-11-21 10:05:00',
      transaction: {
        reference: 'payout-2001',
        amount: 20000,
        currency: 'COP',
        payment_method: 'BANK_TRANSFER',
      },
    };
    answer('post', '/api/v1/payout', () => ok(data));
    const result = await makeClient().payout.create(payoutCO);
    expect(recorded[0]!.method).toBe('POST');
    expect(recorded[0]!.url.pathname).toBe('/root/api/v1/payout');
    expect(recorded[0]!.headers.get('authorization')).toBe(BASIC);
    expect(recorded[0]!.body).toEqual(payoutCO);
    expect(result).toEqual(data);
  });

  it('create: a valid Mexico SPEI PayOut goes through', async () => {
    answer('post', '/api/v1/payout', () =>
      ok({
        ticket: 'mx1',
        date: 'd',
        transaction: { reference: 'payout-mx-1', amount: 1500, currency: 'MXN', payment_method: 'SPEI' },
      }),
    );
    await makeClient().payout.create(payoutMX);
    expect(recorded[0]!.body).toEqual(payoutMX);
  });
});

describe('client.merchant', () => {
  it('getProfile: GET /api/v1/merchant/me', async () => {
    const profile = {
      name: 'Tienda Ana',
      nit: '900123456',
      email: 'pagos@tienda.co',
      currency: 'COP',
      wallet: 150000,
    };
    answer('get', '/api/v1/merchant/me', () => ok(profile));
    const result = await makeClient().merchant.getProfile();
    expect(recorded[0]!.method).toBe('GET');
    expect(recorded[0]!.url.pathname).toBe('/root/api/v1/merchant/me');
    expect(recorded[0]!.headers.get('token-top')).toBe(CREDENTIALS.token);
    expect(result).toEqual(profile);
  });

  it('getBalance: GET /api/v1/merchant/balance, keeping the unnamed merchant attributes', async () => {
    const balance = {
      currency: 'COP',
      balance: 1234567.89,
      balance_formatted: 'COP 1.234.567,89',
      merchant: { id: 7 },
    };
    answer('get', '/api/v1/merchant/balance', () => ok(balance));
    const result = await makeClient().merchant.getBalance();
    expect(recorded[0]!.url.pathname).toBe('/root/api/v1/merchant/balance');
    expect(recorded[0]!.headers.get('authorization')).toBe(BASIC);
    expect(result).toEqual(balance);
  });
});
