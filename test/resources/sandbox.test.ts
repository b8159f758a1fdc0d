import { describe, expect, it } from 'vitest';
import { RequestValidationError, SandboxUnavailableError, StatusNotSupportedError } from '../../src/index.js';
import { answer, BASIC, CREDENTIALS, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();

describe('client.sandbox', () => {
  it.each([
    ['confirmPayIn', 'payin', { transaction_id: '@TIENDA123', payment_method: 'BREB', status: 'APPROVED' }],
    [
      'confirmPayOut',
      'payout',
      { transaction_id: 'payout-2001', payment_method: 'BANK_TRANSFER', status: 'EXPIRED' },
    ],
  ] as const)(
    '%s: POST /api/v1/sandbox/%s/confirm with both credentials',
    async (method, direction, params) => {
      answer('post', `/api/v1/sandbox/${direction}/confirm`, () => ok(params, 'Transaction confirmed'));
      const result = await makeClient().sandbox[method](params);
      expect(recorded[0]!.method).toBe('POST');
      expect(recorded[0]!.url.pathname).toBe(`/root/api/v1/sandbox/${direction}/confirm`);
      expect(recorded[0]!.headers.get('authorization')).toBe(BASIC);
      expect(recorded[0]!.headers.get('token-top')).toBe(CREDENTIALS.token);
      expect(recorded[0]!.body).toEqual(params);
      expect(result).toEqual(params);
      expect(result.lastResponse.message).toBe('Transaction confirmed');
    },
  );

  it('refuses on a production client without sending anything', async () => {
    const client = makeClient({ environment: 'production' });
    await expect(
      client.sandbox.confirmPayIn({ transaction_id: 'x', payment_method: 'BREB', status: 'APPROVED' }),
    ).rejects.toThrow(SandboxUnavailableError);
    await expect(
      client.sandbox.confirmPayOut({ transaction_id: 'x', payment_method: 'SPEI', status: 'APPROVED' }),
    ).rejects.toThrow(/only in staging and UAT/);
    expect(recorded).toHaveLength(0);
  });

  it.each([
    ['payin', 'BREB', 'EXPIRED'],
    ['payin', 'EFECTY', 'REJECTED'],
    ['payin', 'SPEI', 'REJECTED'],
    ['payin', 'CARD', 'APPROVED'],
    ['payin', 'PSE', 'APPROVED'],
    ['payin', 'NEQUI_PUSH', 'APPROVED'],
  ] as const)(
    'checks the supported-status table client-side: %s %s %s',
    async (_d, payment_method, status) => {
      const error = await Promise.resolve()
        .then(() => makeClient().sandbox.confirmPayIn({ transaction_id: 'x', payment_method, status }))
        .catch((e) => e);
      expect(error).toBeInstanceOf(StatusNotSupportedError);
      expect(error.errorCode).toBe('STATUS_NOT_SUPPORTED');
      expect(error.message).toContain('nothing was sent');
      expect(recorded).toHaveLength(0);
    },
  );

  it('lets the service decide for methods the table does not list, and when validation is off', async () => {
    answer('post', '/api/v1/sandbox/payout/confirm', async ({ request }) => ok(await request.json()));
    await makeClient().sandbox.confirmPayOut({
      transaction_id: 'x',
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    answer('post', '/api/v1/sandbox/payin/confirm', async ({ request }) => ok(await request.json()));
    await makeClient({ validateRequests: false }).sandbox.confirmPayIn({
      transaction_id: 'x',
      payment_method: 'BREB',
      status: 'EXPIRED',
    });
    expect(recorded.map((r) => r.url.pathname)).toEqual([
      '/root/api/v1/sandbox/payout/confirm',
      '/root/api/v1/sandbox/payin/confirm',
    ]);
  });

  it('refuses a portal label instead of the uppercase enum name', async () => {
    const error = await makeClient()
      .sandbox.confirmPayIn({ transaction_id: 'x', payment_method: 'Bre-B', status: 'APPROVED' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.issues[0].path).toBe('payment_method');
  });
});
