/**
 * Spec "States and transitions": every row of the sandbox-confirm transition table and the
 * supported-status tables, through the handle() core.
 */
import { describe, expect, it } from 'vitest';
import { SANDBOX_CONFIRM_STATUSES, SANDBOX_CONFIRM_SUPPORT } from '../../src/schemas/catalog.js';
import { CUSTOMER_MX, CUSTOMER_PE, data, payIn, payOut, setup, VALID_CLABE } from './helpers.js';

const COUNTRY_OF = { BREB: 'CO', BREB_QR: 'CO', EFECTY: 'CO', QR: 'PE', SPEI: 'MX' } as const;
const MERCHANT = { CO: 'demo-co', PE: 'demo-pe', MX: 'demo-mx' } as const;
const CURRENCY = { CO: 'COP', PE: 'PEN', MX: 'MXN' } as const;
const CUSTOMER = { CO: undefined, PE: CUSTOMER_PE, MX: CUSTOMER_MX } as const;

function payInFor(c: ReturnType<typeof setup>, method: keyof typeof COUNTRY_OF) {
  const country = COUNTRY_OF[method];
  const body = payIn({
    payment_method: method,
    country,
    currency: CURRENCY[country],
    ...(CUSTOMER[country] ? { customer_data: CUSTOMER[country] } : {}),
  });
  const created = c.post('/api/v2/payin', body, MERCHANT[country]);
  expect(created.status).toBe(200);
  return { ticket: data(created).ticket as string, merchant: MERCHANT[country], body };
}

const balanceOf = (c: ReturnType<typeof setup>, merchant: string) =>
  data(c.get('/api/v1/merchant/balance', merchant)).balance as number;

describe('PayIn: supported-status matrix (spec "Supported statuses, PayIn")', () => {
  const rows = Object.entries(SANDBOX_CONFIRM_SUPPORT.payin) as [
    keyof typeof COUNTRY_OF,
    readonly string[],
  ][];
  for (const [method, supported] of rows) {
    for (const status of SANDBOX_CONFIRM_STATUSES) {
      const yes = supported.includes(status);
      it(`${method} ${status}: ${yes ? 'pending → ' + status + ' + webhook' : '422 STATUS_NOT_SUPPORTED'}`, () => {
        const c = setup();
        const { ticket, merchant, body } = payInFor(c, method);
        const before = balanceOf(c, merchant);
        const r = c.post(
          '/api/v1/sandbox/payin/confirm',
          { transaction_id: ticket, payment_method: method, status },
          merchant,
        );
        const tx = data(c.get(`/api/v1/transaction/${ticket}`, merchant));
        if (!yes) {
          expect(r.status).toBe(422);
          expect(r.json).toMatchObject({ code: '00', status: 'ERROR', error: 'STATUS_NOT_SUPPORTED' });
          expect(tx.status).toBe('PENDING');
          expect(c.sandbox.deliveries).toHaveLength(0);
          return;
        }
        expect(r.status).toBe(200);
        expect(r.json).toMatchObject({
          code: '01',
          status: 'SUCCESS',
          data: { transaction_id: ticket, payment_method: method, status },
        });
        expect(typeof r.json.message).toBe('string');
        expect(tx.status).toBe(status);
        // APPROVED credits the sandbox balance; REJECTED/EXPIRED do not.
        expect(balanceOf(c, merchant)).toBe(status === 'APPROVED' ? before + body.amount : before);
        expect(c.sandbox.deliveries.map((d) => d.status)).toEqual([status]);
      });
    }
  }

  it.each(['CARD', 'PSE', 'NEQUI_PUSH', 'CASH', 'ALL_METHODS', 'TRANSFIYA'])(
    '%s is not driven by sandbox confirm',
    (method) => {
      const c = setup({ autoCompleteDelayMs: 60_000 });
      const { ticket } = {
        ticket: data(c.post('/api/v2/payin', payIn({ payment_method: method }))).ticket as string,
      };
      const r = c.post('/api/v1/sandbox/payin/confirm', {
        transaction_id: ticket,
        payment_method: method,
        status: 'APPROVED',
      });
      expect(r.status).toBe(422);
      expect(r.json.error).toBe('STATUS_NOT_SUPPORTED');
      c.sandbox.close();
    },
  );
});

describe('PayOut: waiting for the bank → final (spec transition rows 4–6)', () => {
  const cases = [
    { method: 'BANK_TRANSFER', merchant: 'demo-co', body: payOut() },
    {
      method: 'BANK_TRANSFER',
      merchant: 'demo-pe',
      body: payOut({
        currency: 'PEN',
        country: 'PE',
        customer_data: { ...CUSTOMER_PE, bank: 'BCP', account_number: '19112345678', account_type: 'AHORRO' },
      }),
    },
    {
      method: 'SPEI',
      merchant: 'demo-mx',
      body: payOut({
        currency: 'MXN',
        country: 'MX',
        payment_method: 'SPEI',
        customer_data: {
          ...CUSTOMER_MX,
          bank: 'STP',
          account_number: VALID_CLABE,
          clabe_number: VALID_CLABE,
          account_type: 'CLABE',
        },
      }),
    },
  ];
  const merchants = ['CO', 'PE', 'MX'].map((country) => ({
    username: `demo-${country.toLowerCase()}`,
    password: 'p',
    token: `t-${country}`,
    country: country as 'CO' | 'PE' | 'MX',
    balance: 100_000,
  }));
  for (const { method, merchant, body } of cases) {
    for (const status of SANDBOX_CONFIRM_STATUSES) {
      it(`${merchant} ${method} ${status}`, () => {
        const c = setup({ merchants });
        const created = c.post(
          '/api/v1/payout',
          { ...body, reference: `${body.reference}-${status}` },
          merchant,
        );
        expect(created.status).toBe(200);
        // The reserve is taken at creation.
        expect(balanceOf(c, merchant)).toBe(90_000);
        const ticket = data(created).ticket as string;
        const r = c.post(
          '/api/v1/sandbox/payout/confirm',
          { transaction_id: ticket, payment_method: method, status },
          merchant,
        );
        expect(r.status).toBe(200);
        const stored = status === 'EXPIRED' ? 'REJECTED' : status;
        expect(r.json).toMatchObject({
          code: '01',
          status: 'SUCCESS',
          data: { transaction_id: ticket, status: stored },
        });
        expect(data(c.get(`/api/v1/transaction/${ticket}`, merchant)).status).toBe(stored);
        // REJECTED and EXPIRED restore the reserve; APPROVED spends it.
        expect(balanceOf(c, merchant)).toBe(status === 'APPROVED' ? 90_000 : 100_000);
        expect(c.sandbox.deliveries.map((d) => d.status)).toEqual([stored]);
      });
    }
  }

  it('BREB PayOut (CO) is outside the PayOut table: STATUS_NOT_SUPPORTED', () => {
    const c = setup({ merchants });
    const ticket = data(c.post('/api/v1/payout', payOut({ payment_method: 'BREB' }))).ticket as string;
    const r = c.post('/api/v1/sandbox/payout/confirm', {
      transaction_id: ticket,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    expect(r.json.error).toBe('STATUS_NOT_SUPPORTED');
  });
});

describe('final statuses (spec transition rows 7–8)', () => {
  it('same status again: 200, unchanged, no second webhook', () => {
    const c = setup();
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    const body = { transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' };
    expect(c.post('/api/v1/sandbox/payin/confirm', body).status).toBe(200);
    const balance = balanceOf(c, 'demo-co');
    const again = c.post('/api/v1/sandbox/payin/confirm', body);
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ code: '01', status: 'SUCCESS', data: { status: 'APPROVED' } });
    expect(balanceOf(c, 'demo-co')).toBe(balance);
    expect(c.sandbox.deliveries).toHaveLength(1);
  });

  it('a different final status: 422 ALREADY_FINAL, unchanged', () => {
    const c = setup();
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    c.post('/api/v1/sandbox/payin/confirm', {
      transaction_id: ticket,
      payment_method: 'BREB',
      status: 'REJECTED',
    });
    const r = c.post('/api/v1/sandbox/payin/confirm', {
      transaction_id: ticket,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: '00', status: 'ERROR', error: 'ALREADY_FINAL' });
    expect(typeof r.json.message).toBe('string');
    expect(data(c.get(`/api/v1/transaction/${ticket}`)).status).toBe('REJECTED');
    expect(balanceOf(c, 'demo-co')).toBe(0);
  });

  it('a PayOut expired (stored REJECTED) confirmed EXPIRED again is the same status: 200', () => {
    const c = setup({
      merchants: [{ username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 50_000 }],
    });
    const ticket = data(c.post('/api/v1/payout', payOut())).ticket as string;
    const body = { transaction_id: ticket, payment_method: 'BANK_TRANSFER', status: 'EXPIRED' };
    expect(c.post('/api/v1/sandbox/payout/confirm', body).status).toBe(200);
    expect(c.post('/api/v1/sandbox/payout/confirm', body).status).toBe(200);
    expect(c.post('/api/v1/sandbox/payout/confirm', { ...body, status: 'APPROVED' }).json.error).toBe(
      'ALREADY_FINAL',
    );
    expect(balanceOf(c, 'demo-co')).toBe(50_000);
  });
});

describe('transaction_id forms (spec "External references that work as transaction_id")', () => {
  it.each([
    ['BREB', 'breb_key', 'CO'],
    ['BREB_QR', 'breb_key', 'CO'],
    ['EFECTY', 'payment_reference', 'CO'],
    ['SPEI', 'clabe', 'MX'],
  ] as const)('%s: payment_information.%s confirms the PayIn', (method, field, _country) => {
    const c = setup();
    const { ticket, merchant } = payInFor(c, method);
    const info = c.sandbox.getTransaction(ticket)!.paymentInformation!;
    const external = info[field] as string;
    expect(external).toBeTruthy();
    const r = c.post(
      '/api/v1/sandbox/payin/confirm',
      { transaction_id: external, payment_method: method, status: 'APPROVED' },
      merchant,
    );
    expect(r.status).toBe(200);
    expect(data(r).transaction_id).toBe(external);
    expect(data(c.get(`/api/v1/transaction/${ticket}`, merchant)).status).toBe('APPROVED');
  });

  it('the merchant reference and the PayOut tracking id work too', () => {
    const c = setup({
      merchants: [{ username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 50_000 }],
    });
    const body = payIn();
    c.post('/api/v2/payin', body);
    expect(
      c.post('/api/v1/sandbox/payin/confirm', {
        transaction_id: body.reference,
        payment_method: 'BREB',
        status: 'APPROVED',
      }).status,
    ).toBe(200);
    const ticket = data(c.post('/api/v1/payout', payOut())).ticket as string;
    const tracking = c.sandbox.getTransaction(ticket)!.externalIds[0]!;
    expect(tracking).toMatch(/^TRK/);
    const r = c.post('/api/v1/sandbox/payout/confirm', {
      transaction_id: tracking,
      payment_method: 'BANK_TRANSFER',
      status: 'APPROVED',
    });
    expect(r.status).toBe(200);
  });
});

describe('funding rule and PayOut submission', () => {
  it('an approved PayIn funds a PayOut; without it the PayOut fails with INSUFFICIENT_FUNDS', () => {
    const c = setup();
    const refused = c.post('/api/v1/payout', payOut());
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({ code: '00', status: 'ERROR', error: 'INSUFFICIENT_FUNDS' });
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    c.post('/api/v1/sandbox/payin/confirm', {
      transaction_id: ticket,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    expect(c.post('/api/v1/payout', payOut()).status).toBe(200);
    expect(balanceOf(c, 'demo-co')).toBe(40_000);
  });

  it('a PayOut not yet submitted to the bank cannot be confirmed (configurable delay)', async () => {
    const { createManualClock } = await import('../../src/testing/index.js');
    const clock = createManualClock();
    const c = setup({
      clock,
      payoutSubmissionDelayMs: 30_000,
      merchants: [{ username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 50_000 }],
    });
    const ticket = data(c.post('/api/v1/payout', payOut())).ticket as string;
    const body = { transaction_id: ticket, payment_method: 'BANK_TRANSFER', status: 'APPROVED' };
    const early = c.post('/api/v1/sandbox/payout/confirm', body);
    expect(early.status).toBe(422);
    expect(early.json.error).toBe('VALIDATION_ERROR');
    expect(String(early.json.message)).toMatch(/not been submitted/);
    await clock.advance(30_000);
    expect(c.post('/api/v1/sandbox/payout/confirm', body).status).toBe(200);
  });
});
