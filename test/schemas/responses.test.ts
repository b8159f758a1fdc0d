/**
 * Reading answers through the HTTP boundary: the default mode tolerates a missing field and a null
 * where a value was expected (the call succeeds and the logger warns once per field), strict mode
 * names the field; results keep unknown keys and values at run time.
 */
import { describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  isKnownErrorCode,
  type Logger,
  type PayInLegacyCreateParams,
  ResponseValidationError,
} from '../../src/index.js';
import { customerCO, payinCO, transaction } from '../helpers/fixtures.js';
import { answer, fail, makeClient, ok, okEchoing, recorded, useMsw } from '../helpers/msw.js';

useMsw();

const echo = {
  reference: 'order-1001',
  amount: 50000,
  currency: 'COP',
  payment_method: 'BREB',
  description: 'Order 1001',
};
const created = { ticket: 'T-1', date: '2026-11-21 10:00:00', transaction: echo };

function logger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn<Logger['warn']>(), error: vi.fn() } satisfies Logger;
}

describe('default mode: missing and null fields', () => {
  it('ipn_url: null echoed for a PayIn created without one → success, field left out, one warning', async () => {
    const log = logger();
    const client = makeClient({ logger: log });
    answer('post', '/api/v2/payin', okEchoing({ ...created, transaction: { ...echo, ipn_url: null } }));
    const { ipn_url: _omit, ...params } = payinCO;
    const result = await client.payin.create(params);
    expect(result.ticket).toBe('T-1');
    expect(result.transaction).not.toHaveProperty('ipn_url');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]![0]).toMatch(/data\.transaction\.ipn_url/);
    expect(log.warn.mock.calls[0]![1]).toMatchObject({ field: 'data.transaction.ipn_url' });

    // The same drift again: the call succeeds, the warning is not repeated.
    await client.payin.create({ ...params, reference: 'order-1002' });
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(recorded).toHaveLength(2);
  });

  it('a missing field: the result has what came, each missing field warned once', async () => {
    const log = logger();
    answer('get', `/api/v1/transaction/${transaction.ticket}`, () => {
      const { date: _d, response_message: _m, ...rest } = transaction;
      return ok({ ...rest, response_message: null });
    });
    const tx = await makeClient({ logger: log }).transactions.get(transaction.ticket);
    expect(tx).toMatchObject({ ticket: transaction.ticket, status: 'PENDING' });
    expect(tx).not.toHaveProperty('date');
    const fields = log.warn.mock.calls.map((call) => (call[1] as { field: string }).field);
    expect(fields).toEqual(['data.date']); // response_message is nullable: null is documented
  });

  it('strictResponses fails naming the field', async () => {
    answer('post', '/api/v2/payin', () => ok({ ...created, transaction: { ...echo, ipn_url: null } }));
    const error = await makeClient({ strictResponses: true })
      .payin.create(payinCO)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).issues.map((i) => i.path)).toContain(
      'data.transaction.ipn_url',
    );
  });

  it('a wrong type is still an error in the default mode (only absence is tolerated)', async () => {
    answer('post', '/api/v2/payin', () => ok({ ...created, ticket: 42 }));
    const error = await makeClient()
      .payin.create(payinCO)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
  });
});

describe('legacy PayIn: the v1 answer echoes no description', () => {
  const { description: _none, ...v1Echo } = echo;
  const v1 = {
    ticket: 'T-9',
    date: '2026-11-21 10:00:00',
    payment_url: 'https://pay.example/T-9',
    transaction: v1Echo,
  };
  const params: PayInLegacyCreateParams = {
    reference: 'order-1001',
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    customer_data: customerCO,
    ipn_url: 'https://m.example/ipn',
    redirect_url: 'https://m.example/back',
  };

  it.each([false, true])('is read (strictResponses %s) without a warning', async (strictResponses) => {
    const log = logger();
    answer('post', '/api/v1/payin', () => ok(v1));
    const result = await makeClient({ strictResponses, logger: log }).payin.createLegacy(params);
    expect(result.ticket).toBe('T-9');
    expect(result.transaction.description).toBeUndefined();
    expect(log.warn).not.toHaveBeenCalled();
  });
});

describe('results: literal unions in the types, tolerant at run time', () => {
  it('an unknown status passes by default and fails under strictResponses', async () => {
    answer('get', `/api/v1/transaction/${transaction.ticket}`, () =>
      ok({ ...transaction, status: 'REFUNDED' }),
    );
    const tx = await makeClient().transactions.get(transaction.ticket);
    expect(tx.status as string).toBe('REFUNDED');
    const strict = await makeClient({ strictResponses: true })
      .transactions.get(transaction.ticket)
      .catch((e: unknown) => e);
    expect(strict).toBeInstanceOf(ResponseValidationError);
  });

  it('payment_information: the known keys typed, unknown keys readable', async () => {
    const info = { breb_key: '@TIENDA123', qr_code: '0002…', reference_2: 'kept', amount: '50000.00' };
    answer('post', '/api/v2/payin', () => ok({ ...created, payment_information: info }));
    const result = await makeClient().payin.create(payinCO);
    expect(result.payment_information?.breb_key).toBe('@TIENDA123');
    expect(result.payment_information?.amount).toBe(50000);
    expect(result.payment_information?.reference_2).toBe('kept');
  });

  it('ApiError.errorCode keeps an identifier the SDK does not know, as sent', async () => {
    answer('get', '/api/v1/transaction/T-1', () => fail(409, { error: 'SOMETHING_NEW' }));
    const error = (await makeClient()
      .transactions.get('T-1')
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.errorCode as string).toBe('SOMETHING_NEW');
    expect(isKnownErrorCode(error.errorCode)).toBe(false);
    expect(isKnownErrorCode('ALREADY_FINAL')).toBe(true);
  });
});
