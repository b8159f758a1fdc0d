/**
 * Request params through the HTTP boundary: what is refused before sending (nothing reaches the
 * msw server), with which message, and what is sent instead of refused.
 */
import { describe, expect, it } from 'vitest';
import {
  type PayInCreateParams,
  type PayOutCreateParams,
  RequestValidationError,
  type SandboxConfirmParams,
} from '../../src/index.js';
import { customerCO, payinCO, payoutCO, payoutMX } from '../helpers/fixtures.js';
import { answer, makeClient, ok, okEchoing, recorded, useMsw } from '../helpers/msw.js';

useMsw();

const created = {
  ticket: 'T-1',
  date: '2026-11-21 10:00:00',
  transaction: { reference: 'order-1001', amount: 50000, currency: 'COP', payment_method: 'BREB' },
};

/** What a JavaScript caller could pass: anything. */
const js = <T>(value: Record<string, unknown>) => value as unknown as T;

async function refusal(call: () => Promise<unknown>): Promise<RequestValidationError> {
  const error = await call().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RequestValidationError);
  expect(recorded).toHaveLength(0);
  return error as RequestValidationError;
}

describe('unknown keys: refused before sending, with the closest known key', () => {
  it('a camelCase ipnUrl names ipn_url (the PayIn would otherwise have no webhook)', async () => {
    const error = await refusal(() =>
      makeClient().payin.create(js<PayInCreateParams>({ ...payinCO, ipnUrl: 'https://shop.example/ipn' })),
    );
    expect(error.issues).toEqual([{ path: 'ipnUrl', message: 'unknown field; did you mean ipn_url?' }]);
    expect(error.message).toContain('ipnUrl: unknown field; did you mean ipn_url?');
    expect(error.message).toContain('nothing was sent');
  });

  it('each unknown key gets its own issue, nested ones with their path', async () => {
    const error = await refusal(() =>
      makeClient().payin.create(
        js<PayInCreateParams>({
          ...payinCO,
          redirectUrl: 'https://shop.example/back',
          customer_data: { ...customerCO, fullName: 'Ana', phone_numbr: '3001234567' },
        }),
      ),
    );
    expect(error.issues).toEqual(
      expect.arrayContaining([
        { path: 'redirectUrl', message: 'unknown field; did you mean redirect_url?' },
        { path: 'customer_data.fullName', message: 'unknown field; did you mean full_name?' },
        { path: 'customer_data.phone_numbr', message: 'unknown field; did you mean phone_number?' },
      ]),
    );
  });

  it('a request option in the params points to the second argument; a far-off key lists the known ones', async () => {
    const error = await refusal(() =>
      makeClient().payout.create(js<PayOutCreateParams>({ ...payoutCO, timeout: 5000, colour: 'red' })),
    );
    const byPath = Object.fromEntries(error.issues.map((i) => [i.path, i.message]));
    expect(byPath.timeout).toMatch(/second argument.*timeoutMs/);
    expect(byPath.colour).toMatch(/^unknown field; known fields: payment_method, reference, amount/);
  });

  it('sandbox confirm refuses unknown keys too', async () => {
    const error = await refusal(() =>
      makeClient().sandbox.confirmPayIn(
        js<SandboxConfirmParams>({
          transaction_id: 'T-1',
          payment_method: 'BREB',
          status: 'APPROVED',
          transactionId: 'T-1',
        }),
      ),
    );
    expect(error.issues).toEqual([
      { path: 'transactionId', message: 'unknown field; did you mean transaction_id?' },
    ]);
  });

  it('an unknown country lists the five', async () => {
    const error = await refusal(() =>
      makeClient().payin.create(js<PayInCreateParams>({ ...payinCO, country: 'AR', currency: 'ARS' })),
    );
    expect(error.issues).toEqual([{ path: 'country', message: 'must be one of CO, PE, MX, GT, HN' }]);
  });
});

describe('amounts that cannot be sent exactly are refused', () => {
  it.each([
    ['above 2^53 − 1', Number.MAX_SAFE_INTEGER + 2, /at most 9007199254740991/],
    ['in exponent notation (large)', 1e21, /at most 9007199254740991/],
    ['in exponent notation (tiny)', 1e-7, /exponent notation/],
    ['finer than the minor unit', 100.125, /at most 2 decimal places/],
    ['a float sum', 0.1 + 0.2, /at most 2 decimal places/],
  ])('PayIn %s', async (_name, amount, message) => {
    const error = await refusal(() => makeClient().payin.create({ ...payinCO, amount }));
    expect(error.issues).toEqual([{ path: 'amount', message: expect.stringMatching(message) }]);
  });

  it('PayOut follows the same rule in every currency; 2 decimals pass and are sent as given', async () => {
    await refusal(() => makeClient().payout.create({ ...payoutMX, amount: 1500.001 }));
    answer('post', '/api/v1/payout', okEchoing(created));
    await makeClient().payout.create({ ...payoutCO, amount: 20_000.55 });
    expect((recorded[0]!.body as { amount: number }).amount).toBe(20_000.55);
  });

  it('the legacy PayIn takes whole amounts only', async () => {
    const legacy = { ...payinCO, amount: 150_000.5 } as const;
    const error = await refusal(() => makeClient().payin.createLegacy(legacy as never));
    expect(error.issues).toEqual([{ path: 'amount', message: 'must be a whole number' }]);
  });
});

describe('legal_doc and phone_number given as numbers (JavaScript, CSV imports)', () => {
  it('are sent as their decimal strings', async () => {
    answer('post', '/api/v2/payin', () => ok(created));
    const customer_data = { ...customerCO, legal_doc: 1020304050, phone_number: 3001234567 };
    await makeClient().payin.create(js<PayInCreateParams>({ ...payinCO, customer_data }));
    expect(recorded[0]!.body).toMatchObject({
      customer_data: { legal_doc: '1020304050', phone_number: '3001234567' },
    });
  });

  it('PayOut too', async () => {
    answer('post', '/api/v1/payout', okEchoing(created));
    const customer_data = { ...payoutCO.customer_data, legal_doc: 900123456 };
    await makeClient().payout.create(js<PayOutCreateParams>({ ...payoutCO, customer_data }));
    expect(recorded[0]!.body).toMatchObject({ customer_data: { legal_doc: '900123456' } });
  });

  it.each([Number.NaN, 1.5, -3, 1e21, Number.POSITIVE_INFINITY])('%s is refused', async (legal_doc) => {
    const customer_data = { ...customerCO, legal_doc };
    const error = await refusal(() =>
      makeClient().payin.create(js<PayInCreateParams>({ ...payinCO, customer_data })),
    );
    expect(error.issues.map((i) => i.path)).toEqual(['customer_data.legal_doc']);
  });
});
