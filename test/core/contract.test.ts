/**
 * Options that mean what they say, errors that claim only what happened, messages whose advice
 * fits the cause — through the HTTP boundary (msw).
 */
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  ApiError,
  ConfigurationError,
  ConnectionError,
  PaymentClient,
  RequestValidationError,
  ResponseValidationError,
  StatusNotSupportedError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { payinCO, payoutCO } from '../helpers/fixtures.js';
import { answer, BASE_URL, CREDENTIALS, fail, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();
const balance = { currency: 'COP', balance: 1, balance_formatted: 'COP 1' };

describe('timeoutMs and maxRetries mean what they say', () => {
  it.each([2 ** 31, 2 ** 40, Number.MAX_SAFE_INTEGER, Infinity, 0, -1, Number.NaN])(
    'timeoutMs %s is refused at construction, never an instant TimeoutError',
    (timeoutMs) => {
      expect(() => makeClient({ timeoutMs })).toThrow(ConfigurationError);
      expect(() => makeClient({ timeoutMs })).toThrow(/timeoutMs/);
    },
  );

  it('the largest timer value is accepted and the call succeeds', async () => {
    answer('get', '/api/v1/merchant/balance', () => ok(balance));
    await expect(makeClient({ timeoutMs: 2 ** 31 - 1 }).merchant.getBalance()).resolves.toMatchObject(
      balance,
    );
  });

  it('a per-call timeoutMs above the timer limit is refused before sending', async () => {
    const error = await makeClient()
      .merchant.getBalance({ timeoutMs: 2 ** 31 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(recorded).toHaveLength(0);
  });

  it.each([1.5, -1, Infinity])('maxRetries %s is refused', (maxRetries) => {
    expect(() => makeClient({ maxRetries })).toThrow(/maxRetries/);
  });

  it('a retried GET waits what retry-after-ms asks', async () => {
    let calls = 0;
    answer('get', '/api/v1/merchant/balance', () =>
      ++calls === 1
        ? HttpResponse.json(
            { code: '00', status: 'ERROR' },
            { status: 503, headers: { 'retry-after-ms': '1200' } },
          )
        : ok(balance),
    );
    const started = performance.now();
    const result = await makeClient({ maxRetries: 1 }).merchant.getBalance();
    expect(result.lastResponse.attempts).toBe(2);
    // Above the default backoff (375–500 ms), so the header was read; no upper bound (loaded CI).
    expect(performance.now() - started).toBeGreaterThanOrEqual(1150);
  });

  it('maxRetries 0: exactly one attempt on a 503', async () => {
    answer('get', '/api/v1/merchant/balance', () => fail(503, { message: 'down' }));
    await expect(makeClient({ maxRetries: 0 }).merchant.getBalance()).rejects.toBeInstanceOf(ApiError);
    expect(recorded).toHaveLength(1);
  });
});

describe('sandbox confirm refusals before sending claim nothing that did not happen', () => {
  it('a status outside APPROVED/REJECTED/EXPIRED is a RequestValidationError; nothing sent', async () => {
    const params = { transaction_id: 'T-1', payment_method: 'BREB', status: 'PENDING' as 'APPROVED' };
    const error = await makeClient()
      .sandbox.confirmPayIn(params)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues[0]!.path).toBe('status');
    expect(recorded).toHaveLength(0);
  });

  it('an unsupported status: StatusNotSupportedError with no HTTP status, body or attempt', async () => {
    const error = await makeClient()
      .sandbox.confirmPayIn({ transaction_id: 'T-1', payment_method: 'BREB', status: 'EXPIRED' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StatusNotSupportedError);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    const e = error as StatusNotSupportedError;
    expect(e.status).toBeUndefined();
    expect(e.body).toBeUndefined();
    expect(e.attempts).toBe(0);
    expect(e.errorCode).toBe('STATUS_NOT_SUPPORTED');
    expect(e.message).toMatch(/nothing was sent/);
    expect(e.message).not.toMatch(/HTTP 422/);
    expect(recorded).toHaveLength(0);
  });
});

describe('messages', () => {
  it('a service message ending in a period gives no doubled period', async () => {
    answer('post', '/api/v1/payout', () =>
      fail(422, { error: 'VALIDATION_ERROR', message: 'Cuenta no válida.' }),
    );
    const error = await makeClient()
      .payout.create(payoutCO)
      .catch((e: unknown) => e);
    expect((error as Error).message).not.toMatch(/\.\./);
    expect((error as Error).message).toMatch(/Cuenta no válida\. /);
  });

  it('a baseUrl ending in /api/v1 or /api/v2 is a ConfigurationError that explains the joining', () => {
    for (const baseUrl of [`${BASE_URL}/api/v1`, `${BASE_URL}/api/v2/`]) {
      expect(() => new PaymentClient({ ...CREDENTIALS, baseUrl })).toThrow(ConfigurationError);
      expect(() => new PaymentClient({ ...CREDENTIALS, baseUrl })).toThrow(/joins paths/);
    }
  });

  it('a baseUrl with a query or fragment is a ConfigurationError that does not repeat it', () => {
    for (const baseUrl of [`${BASE_URL}?key=q-s3cret`, `${BASE_URL}#q-s3cret`, `${BASE_URL}/?`]) {
      let error: unknown;
      try {
        new PaymentClient({ ...CREDENTIALS, baseUrl });
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(ConfigurationError);
      expect((error as Error).message).toMatch(/query \(\?…\) or a fragment/);
      expect((error as Error).message).not.toContain('q-s3cret');
    }
  });

  it('a duplicate reference gets advice to look it up, not to resend', async () => {
    answer('post', '/api/v1/payout', () =>
      fail(409, { error: 'DUPLICATE_REFERENCE', message: 'La referencia ya existe' }),
    );
    const message = await makeClient()
      .payout.create(payoutCO)
      .catch((e: Error) => e.message);
    expect(message).toMatch(/already used/);
    expect(message).toMatch(/transactions\.get/);
    expect(message).not.toMatch(/resend/i);
  });

  it('insufficient funds gets advice about the balance', async () => {
    answer('post', '/api/v1/payout', () =>
      fail(422, { error: 'INSUFFICIENT_FUNDS', message: 'Saldo insuficiente.' }),
    );
    const message = await makeClient()
      .payout.create(payoutCO)
      .catch((e: Error) => e.message);
    expect(message).toMatch(/balance/);
    expect(message).toMatch(/getBalance/);
    expect(message).not.toMatch(/\.\./);
  });
});

describe('a create whose 2xx answer cannot be read', () => {
  it('readable JSON that breaks the schema: says the service accepted it, carries the ticket, no resend', async () => {
    answer('post', '/api/v2/payin', () => ok({ ticket: 'T-777', date: 42, transaction: 'garbled' }));
    const error = await makeClient({ maxRetries: 2 })
      .payin.create(payinCO)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 200, ticket: 'T-777' });
    expect((error as Error).message).toMatch(/accepted it \(ticket T-777\): do not send it again/);
    expect(recorded.map((r) => r.method)).toEqual(['POST']);
  });

  it('a truncated body that still shows the ticket, not yet visible to the lookup: unknown, ticket carried, never resent', async () => {
    answer(
      'post',
      '/api/v2/payin',
      () => new HttpResponse('{"code":"01","data":{"ticket":"T-888","date":"2025', { status: 201 }),
    );
    answer('get', `/api/v1/transaction/${payinCO.reference}`, () => fail(404, { error: 'NOT_FOUND' }));
    const error = await makeClient({ maxRetries: 2 })
      .payin.create(payinCO)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcome: 'unknown', ticket: 'T-888', reference: payinCO.reference });
    expect((error as Error).message).toMatch(/accepted it \(HTTP 201, ticket T-888\)/);
    expect((error as Error).message).toMatch(/Do not send it again/);
    expect(recorded.map((r) => r.method)).toEqual(['POST', 'GET']);
  });
});
