import { inspect } from 'node:util';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { createApiError as coreCreateApiError } from '../../src/core/api-errors.js';
import {
  AlreadyFinalError,
  ApiError,
  AuthenticationError,
  ConfirmFailedError,
  NotFoundError,
  PayinoutError,
  RateLimitError,
  ServerError,
  StatusNotSupportedError,
  TypeMismatchError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { customerCO } from '../helpers/fixtures.js';
import { answer, BASIC, CREDENTIALS, fail, makeClient, recorded, useMsw } from '../helpers/msw.js';

useMsw();
const confirm = { transaction_id: 'order-1001', payment_method: 'BREB', status: 'APPROVED' } as const;

const cases: [string, number, Record<string, unknown>, typeof ApiError][] = [
  ['401', 401, { message: 'Unauthorized' }, AuthenticationError],
  ['403', 403, { message: 'Forbidden' }, AuthenticationError],
  ['404 NOT_FOUND', 404, { error: 'NOT_FOUND' }, NotFoundError],
  [
    '422 VALIDATION_ERROR',
    422,
    { error: 'VALIDATION_ERROR', message: 'status is required' },
    UnprocessableEntityError,
  ],
  [
    '422 ALREADY_FINAL',
    422,
    { error: 'ALREADY_FINAL', message: 'Transaction already final' },
    AlreadyFinalError,
  ],
  ['422 TYPE_MISMATCH', 422, { error: 'TYPE_MISMATCH', message: 'Not a PayIn' }, TypeMismatchError],
  [
    '422 STATUS_NOT_SUPPORTED',
    422,
    { error: 'STATUS_NOT_SUPPORTED', message: 'no' },
    StatusNotSupportedError,
  ],
  ['429', 429, { message: 'slow down', error: 'RATE_LIMITED' }, RateLimitError],
  ['500 CONFIRM_FAILED', 500, { error: 'CONFIRM_FAILED', message: 'update failed' }, ConfirmFailedError],
  ['503', 503, { message: 'maintenance' }, ServerError],
  ['400', 400, { message: 'bad request' }, ApiError],
];

describe('error factory: one class per status and service error id', () => {
  it.each(cases)('%s → %s', async (_name, status, body, ErrorClass) => {
    answer('post', '/api/v1/sandbox/payin/confirm', () => fail(status, body));
    const error = await makeClient()
      .sandbox.confirmPayIn(confirm)
      .catch((e) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toBeInstanceOf(PayinoutError);
    expect(error.constructor).toBe(ErrorClass);
    expect(error.name).toBe(ErrorClass.name);
    expect(error.status).toBe(status);
    expect(error.errorCode).toBe(body.error);
    expect(error.code).toBe('00');
    expect(error.method).toBe('POST');
    expect(error.path).toBe('/api/v1/sandbox/payin/confirm');
    expect(error.attempts).toBe(1);
    expect(error.message).toContain(`HTTP ${status}`);
  });

  it('reads the sandbox 404 whose body holds only {error}', async () => {
    answer('post', '/api/v1/sandbox/payout/confirm', () =>
      HttpResponse.json({ error: 'NOT_FOUND' }, { status: 404 }),
    );
    const error = await makeClient()
      .sandbox.confirmPayOut({ transaction_id: 'nope', payment_method: 'BANK_TRANSFER', status: 'APPROVED' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({
      status: 404,
      errorCode: 'NOT_FOUND',
      code: undefined,
      body: { error: 'NOT_FOUND' },
    });
    // Production answers every sandbox confirm this way: the environment comes first.
    expect(error.message).toMatch(
      /no sandbox endpoints.*staging or UAT.*transaction_id is not this merchant's/,
    );
    expect(error.message).not.toMatch(/Check the ticket/);
  });

  it('treats an HTTP 200 whose envelope says ERROR as an ApiError', async () => {
    answer('get', '/api/v1/merchant/me', () =>
      HttpResponse.json({ code: '00', status: 'ERROR', message: 'Comercio inactivo' }),
    );
    const error = await makeClient()
      .merchant.getProfile()
      .catch((e) => e);
    expect(error.constructor).toBe(ApiError);
    expect(error).toMatchObject({ status: 200, code: '00', serviceMessage: 'Comercio inactivo' });
  });

  it('reads an HTML 502 page from a proxy as a ServerError with status 502', async () => {
    answer(
      'get',
      '/api/v1/merchant/me',
      () => new HttpResponse('<html><body>502 Bad Gateway</body></html>', { status: 502 }),
    );
    const error = await makeClient()
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.status).toBe(502);
    expect(error.body).toContain('502 Bad Gateway');
  });
});

describe('errors never carry credentials or customer PII', () => {
  it('scrubs the request PII echoed by the service and masks sensitive keys', async () => {
    answer('post', '/api/v2/payin', () =>
      fail(400, {
        message: 'Documento 1020304050 de ana.perez@example.com no válido',
        data: { email: 'ana.perez@example.com', authorization: BASIC },
      }),
    );
    const error = await makeClient()
      .payin.create({
        reference: 'r-1',
        amount: 10_000,
        currency: 'COP',
        country: 'CO',
        payment_method: 'BREB',
        description: 'x',
        customer_data: customerCO,
      })
      .catch((e) => e);
    expect(recorded).toHaveLength(1);
    const views = [error.message, JSON.stringify(error), inspect(error, { depth: 10 }), String(error.stack)];
    for (const view of views) {
      for (const secret of [
        '1020304050',
        'ana.perez@example.com',
        CREDENTIALS.password,
        CREDENTIALS.token,
        BASIC,
      ]) {
        expect(view).not.toContain(secret);
      }
    }
    expect(error.message).toContain('[REDACTED]');
  });
});

describe("core knows HTTP statuses; the service's identifiers arrive as an injected classifier", () => {
  const body = { code: '00', status: 'ERROR', error: 'ALREADY_FINAL', message: 'ya es final' };
  it('without a classifier, a refusal is the class of its status, whatever identifier it carries', () => {
    const error = coreCreateApiError({ status: 422, body });
    expect(error.constructor).toBe(UnprocessableEntityError);
    expect(error.errorCode).toBe('ALREADY_FINAL');
    expect(error.message).toMatch(/fix the fields it names/);
  });
  it("the classifier's class and advice win; what it leaves open stays the status's", () => {
    const chosen = coreCreateApiError({ status: 422, body }, () => ({
      ErrorClass: AlreadyFinalError,
      advice: 'Do X.',
    }));
    expect(chosen).toBeInstanceOf(AlreadyFinalError);
    expect(chosen.message).toMatch(/ya es final\. Do X\.$/);
    const adviceOnly = coreCreateApiError({ status: 503, body: {} }, () => ({ advice: 'Do Y.' }));
    expect(adviceOnly.constructor).toBe(ServerError);
    expect(adviceOnly.message).toMatch(/Do Y\.$/);
  });
  it('the deprecated createApiError of the main entry still applies the rows (and the sandbox advice by path)', async () => {
    const { createApiError } = await import('../../src/index.js');
    expect(createApiError({ status: 422, body })).toBeInstanceOf(AlreadyFinalError);
    const sandbox = createApiError({
      status: 404,
      body: {},
      method: 'POST',
      path: '/api/v1/sandbox/payin/confirm',
    });
    expect(sandbox).toBeInstanceOf(NotFoundError);
    expect(sandbox.message).toMatch(/production address, it has no sandbox endpoints/);
  });
});
