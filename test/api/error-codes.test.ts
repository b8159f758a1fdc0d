/**
 * One table of error identifiers (ERROR_CODES in src/schemas/catalog.ts): the simulator answers
 * each identifier with the table's status, the OpenAPI document states the table's statuses, and
 * the SDK reads every identifier of the table as a known one.
 */
import { HttpResponse, http } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_ROWS } from '../../src/api/errors.js';
import { OPERATION_LIST } from '../../src/api/operations.js';
import {
  AlreadyFinalError,
  ApiError,
  catalog,
  isKnownErrorCode,
  NotFoundError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { documentedErrors } from '../../src/openapi/operation-texts.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { BASE_URL, makeClient, server as msw, useMsw } from '../helpers/msw.js';

const { ERROR_CODES, KNOWN_ERROR_CODES } = catalog;

let server: SandboxServer;
beforeAll(async () => {
  server = await startSandboxServer({ webhooks: false });
});
afterAll(() => server.close());

/** Requests the simulator refuses, each with a different identifier. */
function refusals(): Array<[string, RequestInit & { path: string }]> {
  const merchant = server.sandbox.merchants[0]!;
  const auth = {
    authorization: `Basic ${Buffer.from(`${merchant.username}:${merchant.password}`).toString('base64')}`,
    'token-top': merchant.token,
  };
  const json = { ...auth, 'content-type': 'application/json' };
  let deep = '1';
  for (let i = 0; i < 100; i++) deep = `[${deep}]`;
  return [
    ['no credentials', { path: '/api/v1/merchant/balance' }],
    ['unknown path', { path: '/api/v1/nothing-here', headers: auth }],
    ['wrong method', { path: '/api/v1/merchant/balance', method: 'DELETE', headers: auth }],
    ['invalid body', { path: '/api/v1/payout', method: 'POST', headers: json, body: '{}' }],
    [
      'not JSON',
      {
        path: '/api/v1/payout',
        method: 'POST',
        headers: { ...auth, 'content-type': 'text/plain' },
        body: 'x',
      },
    ],
    [
      'too large',
      { path: '/api/v1/payout', method: 'POST', headers: json, body: `"${'x'.repeat(1_100_000)}"` },
    ],
    ['too deep', { path: '/api/v1/payout', method: 'POST', headers: json, body: deep }],
    [
      'unknown confirm id',
      {
        path: '/api/v1/sandbox/payin/confirm',
        method: 'POST',
        headers: json,
        body: '{"transaction_id":"nope","payment_method":"BREB","status":"APPROVED"}',
      },
    ],
  ];
}

describe('the simulator answers each identifier with the status of ERROR_CODES', () => {
  it('for every refusal it makes', async () => {
    const seen: string[] = [];
    for (const [name, { path, ...init }] of refusals()) {
      const response = await fetch(`${server.url}${path}`, init);
      const body = (await response.json()) as { error?: string };
      expect(isKnownErrorCode(body.error), `${name}: ${body.error}`).toBe(true);
      const code = body.error as keyof typeof ERROR_CODES;
      expect(response.status, `${name}: ${code}`).toBe(ERROR_CODES[code].status);
      seen.push(code);
    }
    expect(new Set(seen).size).toBeGreaterThanOrEqual(6);
  });
});

describe('the OpenAPI document and the operations table', () => {
  it("state each documented error with the table's status", () => {
    const documented = OPERATION_LIST.flatMap((operation) => documentedErrors(operation.id));
    expect(documented.length).toBeGreaterThan(0);
    for (const error of documented) expect(error.status).toBe(ERROR_CODES[error.error].status);
    const document = JSON.stringify(buildOpenApiDocument());
    for (const error of documented) expect(document).toContain(error.error);
  });
});

describe('the SDK', () => {
  useMsw();
  it('KNOWN_ERROR_CODES is the table, and each identifier reaches ApiError.errorCode as known', async () => {
    expect(KNOWN_ERROR_CODES).toEqual(Object.keys(ERROR_CODES));
    for (const code of KNOWN_ERROR_CODES) {
      const { status } = ERROR_CODES[code];
      msw.use(
        http.get(`${BASE_URL}/api/v1/merchant/balance`, () =>
          HttpResponse.json({ code: '00', status: 'ERROR', error: code, message: 'refused' }, { status }),
        ),
      );
      const error = await makeClient({ maxRetries: 0 })
        .merchant.getBalance()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).errorCode).toBe(code);
      expect((error as ApiError).status).toBe(status);
    }
  });
});

describe('each identifier is one row (src/api/errors.ts)', () => {
  useMsw();
  const refuse = async (status: number, body: Record<string, unknown>) => {
    msw.use(
      http.get(`${BASE_URL}/api/v1/merchant/balance`, () =>
        HttpResponse.json({ code: '00', status: 'ERROR', message: 'refused', ...body }, { status }),
      ),
    );
    return makeClient({ maxRetries: 0 })
      .merchant.getBalance()
      .catch((e: unknown) => e as ApiError);
  };

  it('every identifier of ERROR_CODES has a row, and no row names another', () => {
    expect(Object.keys(ERROR_ROWS).sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("an identifier of the guide picks its class whatever the status: its row's, else its documented status's", async () => {
    // An envelope that says ERROR on HTTP 200 is still the refusal its identifier names.
    expect(await refuse(200, { error: 'ALREADY_FINAL' })).toBeInstanceOf(AlreadyFinalError);
    expect(await refuse(200, { error: 'NOT_FOUND' })).toBeInstanceOf(NotFoundError);
    expect(await refuse(400, { error: 'VALIDATION_ERROR' })).toBeInstanceOf(UnprocessableEntityError);
  });

  it("the simulator's own identifiers refine the advice, never the class its status gives", async () => {
    const error = await refuse(409, { error: 'DUPLICATE_REFERENCE' });
    expect(error.constructor).toBe(ApiError);
    expect(error.message).toMatch(/HTTP 409 DUPLICATE_REFERENCE.*already used by this merchant/);
  });

  it("advice follows the identifier's row, not words in the service's message", async () => {
    const error = await refuse(422, {
      error: 'VALIDATION_ERROR',
      message: 'la referencia ya existe, saldo insuficiente',
    });
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect(error.message).toMatch(/fix the fields it names/);
    expect(error.message).not.toMatch(/already used by this merchant|getBalance/);
  });
});
