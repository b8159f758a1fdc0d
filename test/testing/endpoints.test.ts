/** Every endpoint's success answer (spec "Endpoints", "Resources and their fields"). */
import { describe, expect, it } from 'vitest';
import { isValidClabe } from '../../src/schemas/catalog.js';
import {
  createManualClock,
  formatBalance,
  SANDBOX_PSE_APPROVED_EMAIL,
  SANDBOX_PSE_BANK,
} from '../../src/testing/index.js';
import { CUSTOMER_CO, data, IPN, payIn, setup } from './helpers.js';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('POST /api/v2/payin', () => {
  it.each([
    ['CARD', true, false],
    ['ALL_METHODS', true, false],
    ['PSE', true, false],
    ['BREB', false, true],
    ['NEQUI_PUSH', false, true],
    ['BREB_QR', true, true],
    ['EFECTY', true, true],
  ])('%s: payment_url %s, payment_information %s', (method, url, info) => {
    const c = setup({ baseUrl: 'http://127.0.0.1:4010' });
    const body = payIn({ payment_method: method, redirect_url: 'https://shop.example/back' });
    const r = c.post('/api/v2/payin', body);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ code: '01', status: 'SUCCESS' });
    const d = data(r);
    expect(d.ticket).toMatch(UUID);
    expect(d.date).toMatch(TIMESTAMP);
    expect('payment_url' in d).toBe(url);
    if (url) expect(d.payment_url).toBe(`http://127.0.0.1:4010/checkout/${d.ticket}`);
    expect('payment_information' in d).toBe(info);
    expect(d.transaction).toStrictEqual({
      reference: body.reference,
      amount: 50_000,
      currency: 'COP',
      payment_method: method,
      redirect_url: 'https://shop.example/back',
      ipn_url: IPN,
      description: 'Order',
    });
    c.sandbox.close();
  });

  it('SPEI PayIn is assigned a valid CLABE', () => {
    const c = setup();
    const r = c.post(
      '/api/v2/payin',
      payIn({
        payment_method: 'SPEI',
        country: 'MX',
        currency: 'MXN',
        customer_data: { ...CUSTOMER_CO, legal_doc_type: 'INE' },
      }),
      'demo-mx',
    );
    const info = data(r).payment_information as { clabe: string };
    expect(isValidClabe(info.clabe)).toBe(true);
  });

  it('tickets are unique UUIDs', () => {
    const c = setup();
    const tickets = new Set(
      Array.from(
        { length: 50 },
        () => data(c.post('/api/v2/payin', payIn({ payment_method: 'CARD' }))).ticket,
      ),
    );
    expect(tickets.size).toBe(50);
  });
});

describe('POST /api/v1/payin (legacy)', () => {
  it('creates with the smaller field list and answers ticket, payment_url, transaction', () => {
    const c = setup();
    const { description: _d, ...body } = payIn({
      payment_method: 'PSE',
      redirect_url: 'https://shop.example/back',
    });
    const r = c.post('/api/v1/payin', body);
    expect(r.status).toBe(200);
    expect(data(r)).toMatchObject({
      ticket: expect.stringMatching(UUID),
      payment_url: expect.any(String),
      transaction: { reference: body.reference },
    });
  });

  it('applies the legacy limits (PSE minimum 2,000)', () => {
    const c = setup();
    const r = c.post(
      '/api/v1/payin',
      payIn({ payment_method: 'PSE', amount: 1_000, redirect_url: 'https://shop.example/back' }),
    );
    expect(r.json.error).toBe('VALIDATION_ERROR');
  });
});

describe('GET|POST /api/v1/transaction/{ticket}', () => {
  it('finds by ticket and by reference, with GET and POST, in the documented fields and payment_method only', () => {
    const c = setup();
    const body = payIn();
    const ticket = data(c.post('/api/v2/payin', body)).ticket as string;
    const answers = [
      c.get(`/api/v1/transaction/${ticket}`),
      c.get(`/api/v1/transaction/${encodeURIComponent(body.reference)}`),
      c.post(`/api/v1/transaction/${ticket}`, { ticket }),
      c.post('/api/v1/transaction', { ticket: body.reference }),
    ];
    for (const r of answers) {
      expect(r.status).toBe(200);
      expect(data(r)).toStrictEqual({
        ticket,
        reference: body.reference,
        amount: 50_000,
        currency: 'COP',
        type_transaction: 'PAYIN',
        customer: CUSTOMER_CO,
        status: 'PENDING',
        response_message: 'Transaction pending',
        date: expect.stringMatching(TIMESTAMP),
        metadata: [],
        // Not in the guide's field list (spec-gaps row 41): what `payinout confirm` needs.
        payment_method: body.payment_method,
      });
    }
  });

  it("another merchant's transaction is not found", () => {
    const c = setup();
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    expect(c.get(`/api/v1/transaction/${ticket}`, 'demo-pe').status).toBe(404);
  });
});

describe('merchant endpoints', () => {
  it('me: name, nit, email, currency, integer wallet', () => {
    const c = setup({
      merchants: [{ username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 1234.56 }],
    });
    expect(data(c.get('/api/v1/merchant/me'))).toStrictEqual({
      name: expect.any(String),
      nit: expect.any(String),
      email: expect.any(String),
      currency: 'COP',
      wallet: 1234,
    });
  });

  it('balance: raw and formatted', () => {
    const c = setup({
      merchants: [{ username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 1_234_567.89 }],
    });
    expect(data(c.get('/api/v1/merchant/balance'))).toStrictEqual({
      currency: 'COP',
      balance: 1_234_567.89,
      balance_formatted: 'COP 1.234.567,89',
    });
  });

  it.each([
    [0, 'PEN 0,00'],
    [999.5, 'PEN 999,50'],
    [1000, 'PEN 1.000,00'],
    [12_345_678.9, 'PEN 12.345.678,90'],
  ])('formatBalance(%s) = %s', (amount, text) => {
    expect(formatBalance('PEN', amount)).toBe(text);
  });
});

describe('PSE and automatic flows (spec prerequisite 5)', () => {
  it('GET /api/v1/pse/banks lists the sandbox bank Banka', () => {
    const c = setup();
    const banks = data(c.get('/api/v1/pse/banks')) as unknown as { code: string; name: string }[];
    expect(banks).toContainEqual({ code: SANDBOX_PSE_BANK.code, name: 'Banka' });
  });

  it.each([
    [SANDBOX_PSE_APPROVED_EMAIL, 'APPROVED', 50_000],
    ['someone@example.com', 'REJECTED', 0],
  ])('PSE direct with Banka completes by itself: %s → %s', async (email, status, balance) => {
    const clock = createManualClock();
    const c = setup({ clock });
    const body = payIn({
      payment_method: 'PSE',
      customer_data: { ...CUSTOMER_CO, email, bank: SANDBOX_PSE_BANK.code, person_type: 'NATURAL' },
    });
    const created = data(c.post('/api/v2/payin', body));
    expect(created.payment_information).toMatchObject({ bank: SANDBOX_PSE_BANK.code, bank_name: 'Banka' });
    expect(data(c.get(`/api/v1/transaction/${created.ticket}`)).status).toBe('PENDING');
    await clock.advance(1_000);
    const tx = data(c.get(`/api/v1/transaction/${created.ticket}`));
    expect(tx.status).toBe(status);
    expect(tx.cus).toMatch(/^\d{10}$/);
    expect(data(c.get('/api/v1/merchant/balance')).balance).toBe(balance);
    expect(c.sandbox.deliveries.map((d) => d.status)).toEqual([status]);
  });

  it('PSE direct with a bank that is not in the list is refused', () => {
    const c = setup();
    const r = c.post(
      '/api/v2/payin',
      payIn({
        payment_method: 'PSE',
        customer_data: { ...CUSTOMER_CO, bank: '0000', person_type: 'NATURAL' },
      }),
    );
    expect(r.json.error).toBe('VALIDATION_ERROR');
  });

  it('NEQUI_PUSH is approved by itself after creation', async () => {
    const clock = createManualClock();
    const c = setup({ clock, autoCompleteDelayMs: 500 });
    const ticket = data(c.post('/api/v2/payin', payIn({ payment_method: 'NEQUI_PUSH' }))).ticket as string;
    await clock.advance(499);
    expect(c.sandbox.getTransaction(ticket)!.status).toBe('PENDING');
    await clock.advance(1);
    expect(c.sandbox.getTransaction(ticket)!.status).toBe('APPROVED');
  });

  it('CARD: the checkout result is fixed by the test card; top_card is filled', () => {
    const c = setup();
    const approved = data(c.post('/api/v2/payin', payIn({ payment_method: 'CARD' }))).ticket as string;
    const declined = data(c.post('/api/v2/payin', payIn({ payment_method: 'CARD' }))).ticket as string;
    const pay = (ticket: string, card: string) =>
      c.sandbox.handle({
        method: 'POST',
        path: `/checkout/${ticket}`,
        headers: {},
        body: `card_number=${card}`,
      });
    expect(pay(approved, '4111111111111111').status).toBe(200);
    expect(pay(declined, '4000000000009995').status).toBe(200);
    expect(c.sandbox.getTransaction(approved)!.status).toBe('APPROVED');
    expect(c.sandbox.getTransaction(declined)!.status).toBe('DECLINED');
    expect(c.sandbox.deliveries[0]!.payload.top_card).toMatchObject({
      bin: '411111',
      lastFourDigits: '1111',
      brand: 'VISA',
    });
    const page = c.sandbox.handle({ method: 'GET', path: `/checkout/${approved}`, headers: {} });
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(String(page.body)).toContain('APPROVED');
  });
});
