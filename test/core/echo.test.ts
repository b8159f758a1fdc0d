/**
 * A create answered 2xx whose echo names another reference, amount or currency is not the
 * merchant's proof: the reference is looked up, and without a proven match the outcome is unknown
 * (accepted, never resent).
 */
import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/index.js';
import { payinCO, transaction } from '../helpers/fixtures.js';
import { answer, fail, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();

const foreign = {
  ticket: 'T-OTHER',
  date: '2026-11-22 10:00:00',
  transaction: { reference: 'someone-else', amount: 99, currency: 'PEN', payment_method: 'QR' },
};
const posts = () => recorded.filter((r) => r.method === 'POST').length;

describe('a create answer that echoes another transaction', () => {
  it('is settled by lookup: the proven transaction is returned, rebuilt from the lookup', async () => {
    answer('post', '/api/v2/payin', () => ok(foreign));
    answer('get', `/api/v1/transaction/${payinCO.reference}`, () =>
      ok({ ...transaction, status: 'PENDING', type_transaction: 'PAYIN' }),
    );
    const result = await makeClient().payin.create(payinCO);
    expect(result.ticket).toBe(transaction.ticket);
    expect(result.transaction.reference).toBe(payinCO.reference);
    expect(result.recovered).toBe(true);
    expect(posts()).toBe(1);
  });

  it('without a lookup that proves it: ConnectionError outcome unknown, accepted, never resent', async () => {
    answer('post', '/api/v2/payin', () => ok(foreign));
    answer('get', `/api/v1/transaction/${payinCO.reference}`, () => fail(404, { error: 'NOT_FOUND' }));
    const error = await makeClient({ maxRetries: 3 })
      .payin.create(payinCO)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).outcome).toBe('unknown');
    expect((error as ConnectionError).accepted).toBe(true);
    expect((error as Error).message).toMatch(/echoes another reference, amount, currency/);
    expect(posts()).toBe(1);
  });

  it('an echo that leaves fields out contradicts nothing: the answer is returned as it came', async () => {
    const { reference: _r, amount: _a, currency: _c, ...rest } = foreign.transaction;
    answer('post', '/api/v2/payin', () => ok({ ...foreign, transaction: rest }));
    const result = await makeClient().payin.create(payinCO);
    expect(result.ticket).toBe('T-OTHER');
    expect(recorded).toHaveLength(1);
  });
});
