import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { answer, makeClient, ok, useMsw } from '../helpers/msw.js';

useMsw();
const profile = {
  name: 'Tienda Ana',
  nit: '900123456',
  email: 'pagos@tienda.co',
  currency: 'COP',
  wallet: 150000,
};

describe('envelope: tolerant by default', () => {
  it('keeps unknown keys and accepts a status the spec does not list yet', async () => {
    answer('get', '/api/v1/transaction/t-1', () =>
      ok({
        ticket: 't-1',
        reference: 'r-1',
        amount: '50000.00',
        currency: 'COP',
        status: 'REFUNDED',
        date: '2026-11-21 10:00:00',
        new_field: { nested: true },
      }),
    );
    const tx = await makeClient().transactions.get('t-1');
    expect(tx.status).toBe('REFUNDED');
    expect(tx.amount).toBe(50000);
    // Unknown keys are kept at run time; the type lists only documented fields (typos do not compile).
    expect((tx as Record<string, unknown>).new_field).toEqual({ nested: true });
  });

  it('reads a body that is valid JSON but not JSON content type', async () => {
    answer(
      'get',
      '/api/v1/merchant/me',
      () =>
        new HttpResponse(JSON.stringify({ code: '01', status: 'SUCCESS', data: profile }), {
          headers: { 'content-type': 'text/html' },
        }),
    );
    expect((await makeClient().merchant.getProfile()).name).toBe('Tienda Ana');
  });

  it.each([
    ['truncated JSON', '{"code":"01","status":"SUCC', /not valid JSON/],
    ['an empty body', '', /body is empty/],
    ['an envelope without data', '{"code":"01","status":"SUCCESS","message":"ok"}', /no data field/],
  ])('turns %s on HTTP 200 into ResponseValidationError', async (_name, body, why) => {
    answer('get', '/api/v1/merchant/me', () => new HttpResponse(body, { status: 200 }));
    const error = await makeClient()
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.status).toBe(200);
    expect(error.message).toMatch(why);
  });

  it('names the field when the data does not match even the tolerant schema', async () => {
    answer('get', '/api/v1/merchant/me', () => ok({ ...profile, wallet: 'lots' }));
    const error = await makeClient()
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i: { path: string }) => i.path)).toEqual(['data.wallet']);
  });
});

describe('envelope: strictResponses turns drift into errors', () => {
  it('rejects an unknown key, naming it', async () => {
    answer('get', '/api/v1/merchant/me', () => ok({ ...profile, loyalty_tier: 'gold' }));
    const error = await makeClient({ strictResponses: true })
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.message).toContain('loyalty_tier');
  });

  it('rejects an unknown status value', async () => {
    answer('get', '/api/v1/transaction/t-1', () =>
      ok({ ticket: 't-1', reference: 'r', amount: 1, currency: 'COP', status: 'REFUNDED', date: 'd' }),
    );
    const error = await makeClient({ strictResponses: true })
      .transactions.get('t-1')
      .catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues[0].path).toBe('data.status');
  });

  it('rejects an envelope that lacks code 01 / SUCCESS', async () => {
    answer('get', '/api/v1/merchant/me', () => HttpResponse.json({ data: profile }));
    const error = await makeClient({ strictResponses: true })
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error.issues.map((i: { path: string }) => i.path)).toEqual(['code', 'status']);
    // The same answer is fine for a tolerant client.
    expect((await makeClient().merchant.getProfile()).nit).toBe('900123456');
  });

  it('accepts a documented answer, numeric customer fields included', async () => {
    answer('get', '/api/v1/transaction/t-1', () =>
      ok({
        ticket: 't-1',
        reference: 'r-1',
        amount: 1,
        currency: 'COP',
        status: 'APPROVED',
        date: '2026-11-21 10:00:00',
        customer: { legal_doc: 123456, phone_number: 3001234567, email: 'a@b.co' },
      }),
    );
    const tx = await makeClient({ strictResponses: true }).transactions.get('t-1');
    expect(tx.customer?.legal_doc).toBe('123456');
    expect(tx.customer?.phone_number).toBe('3001234567');
  });
});
