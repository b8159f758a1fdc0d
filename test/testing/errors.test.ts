/** Spec "Errors" (sandbox confirm table), "Authentication" and the simulator's own create errors. */
import { describe, expect, it } from 'vitest';
import { createSandbox } from '../../src/testing/index.js';
import { basic, data, payIn, payOut, setup } from './helpers.js';

const CONFIRM = '/api/v1/sandbox/payin/confirm';

describe('sandbox confirm error table', () => {
  it('404 NOT_FOUND for an unknown transaction_id; the body holds only error', () => {
    const c = setup();
    const r = c.post(CONFIRM, { transaction_id: 'nope', payment_method: 'BREB', status: 'APPROVED' });
    expect(r.status).toBe(404);
    expect(r.json).toStrictEqual({ error: 'NOT_FOUND' });
  });

  it("404 NOT_FOUND for another merchant's transaction, by ticket and by reference", () => {
    const c = setup();
    const body = payIn();
    const ticket = data(c.post('/api/v2/payin', body, 'demo-co')).ticket as string;
    c.sandbox.addMerchant({ username: 'other-co', password: 'p', token: 'other', country: 'CO' });
    for (const id of [ticket, body.reference]) {
      const r = c.post(
        CONFIRM,
        { transaction_id: id, payment_method: 'BREB', status: 'APPROVED' },
        'other-co',
      );
      expect(r.status).toBe(404);
      expect(r.json).toStrictEqual({ error: 'NOT_FOUND' });
    }
    expect(c.sandbox.getTransaction(ticket)!.status).toBe('PENDING');
  });

  it('404 NOT_FOUND in production, with no status change', () => {
    const c = setup({ environment: 'production' });
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    for (const path of [CONFIRM, '/api/v1/sandbox/payout/confirm']) {
      const r = c.post(path, { transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' });
      expect(r.status).toBe(404);
      expect(r.json).toStrictEqual({ error: 'NOT_FOUND' });
    }
    expect(c.sandbox.getTransaction(ticket)!.status).toBe('PENDING');
  });

  it.each([
    ['missing fields', {}],
    ['missing status', { transaction_id: 'x', payment_method: 'BREB' }],
    [
      'a portal label instead of the enum name',
      { transaction_id: 'x', payment_method: 'Bre-B', status: 'APPROVED' },
    ],
    ['a non-final status', { transaction_id: 'x', payment_method: 'BREB', status: 'PENDING' }],
    ['a non-string transaction_id', { transaction_id: 7, payment_method: 'BREB', status: 'APPROVED' }],
  ])('422 VALIDATION_ERROR for an invalid body: %s', (_name, body) => {
    const c = setup();
    const r = c.post(CONFIRM, body);
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: '00', status: 'ERROR', error: 'VALIDATION_ERROR' });
    expect(String(r.json.message).length).toBeGreaterThan(0);
  });

  it('422 VALIDATION_ERROR for a body that is not JSON', () => {
    const sandbox = createSandbox({ webhooks: false });
    const r = sandbox.handle({
      method: 'POST',
      path: CONFIRM,
      headers: { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' },
      body: '{not json',
    });
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ error: 'VALIDATION_ERROR' });
  });

  it('422 TYPE_MISMATCH: PayIn confirm on a PayOut and the reverse', () => {
    const c = setup({
      merchants: [{ username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 1e6 }],
    });
    const payin = data(c.post('/api/v2/payin', payIn())).ticket as string;
    const payout = data(c.post('/api/v1/payout', payOut())).ticket as string;
    const a = c.post(CONFIRM, {
      transaction_id: payout,
      payment_method: 'BANK_TRANSFER',
      status: 'APPROVED',
    });
    const b = c.post('/api/v1/sandbox/payout/confirm', {
      transaction_id: payin,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    for (const r of [a, b]) {
      expect(r.status).toBe(422);
      expect(r.json).toMatchObject({ code: '00', status: 'ERROR', error: 'TYPE_MISMATCH' });
    }
  });

  it.each([
    ['BREB', 'EXPIRED'],
    ['EFECTY', 'EXPIRED'],
    ['EFECTY', 'REJECTED'],
  ])('422 STATUS_NOT_SUPPORTED: %s %s', (method, status) => {
    const c = setup();
    const ticket = data(c.post('/api/v2/payin', payIn({ payment_method: method }))).ticket as string;
    const r = c.post(CONFIRM, { transaction_id: ticket, payment_method: method, status });
    expect(r.status).toBe(422);
    expect(r.json.error).toBe('STATUS_NOT_SUPPORTED');
  });

  it('422 STATUS_NOT_SUPPORTED: REJECTED on SPEI PayIn', () => {
    const c = setup();
    const body = payIn({
      payment_method: 'SPEI',
      country: 'MX',
      currency: 'MXN',
      customer_data: { ...payIn().customer_data, legal_doc_type: 'INE' },
    });
    const ticket = data(c.post('/api/v2/payin', body, 'demo-mx')).ticket as string;
    const r = c.post(
      CONFIRM,
      { transaction_id: ticket, payment_method: 'SPEI', status: 'REJECTED' },
      'demo-mx',
    );
    expect(r.json.error).toBe('STATUS_NOT_SUPPORTED');
  });

  it('422 ALREADY_FINAL for a different final status', () => {
    const c = setup();
    const ticket = data(
      c.post(
        '/api/v2/payin',
        payIn({
          payment_method: 'QR',
          country: 'PE',
          currency: 'PEN',
          customer_data: { ...payIn().customer_data, legal_doc_type: 'DNI' },
        }),
        'demo-pe',
      ),
    ).ticket as string;
    c.post(CONFIRM, { transaction_id: ticket, payment_method: 'QR', status: 'EXPIRED' }, 'demo-pe');
    const r = c.post(
      CONFIRM,
      { transaction_id: ticket, payment_method: 'QR', status: 'APPROVED' },
      'demo-pe',
    );
    expect(r.status).toBe(422);
    expect(r.json.error).toBe('ALREADY_FINAL');
  });

  it('500 CONFIRM_FAILED when injected; nothing changes and a retry succeeds', () => {
    const c = setup();
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    c.sandbox.injectConfirmFailure();
    const body = { transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' };
    const failed = c.post(CONFIRM, body);
    expect(failed.status).toBe(500);
    expect(failed.json).toMatchObject({ code: '00', status: 'ERROR', error: 'CONFIRM_FAILED' });
    expect(c.sandbox.getTransaction(ticket)!.status).toBe('PENDING');
    expect(c.post(CONFIRM, body).status).toBe(200);
  });

  it('a payment_method that differs from the transaction is a VALIDATION_ERROR', () => {
    const c = setup();
    const ticket = data(c.post('/api/v2/payin', payIn())).ticket as string;
    const r = c.post(CONFIRM, { transaction_id: ticket, payment_method: 'EFECTY', status: 'APPROVED' });
    expect(r.status).toBe(422);
    expect(r.json.error).toBe('VALIDATION_ERROR');
  });
});

describe('authentication (spec "Authentication"; the failure body is the simulator\'s choice)', () => {
  const sandbox = createSandbox({ webhooks: false });
  const auth = basic('demo-co', 'demo-co-pass');
  const cases: [string, Record<string, string>][] = [
    ['no headers', {}],
    ['Basic only, no Token-Top', { authorization: auth }],
    ['wrong password', { authorization: basic('demo-co', 'x'), 'token-top': 'demo-co-token' }],
    ['token of another merchant', { authorization: auth, 'token-top': 'demo-pe-token' }],
    ['unknown token', { authorization: auth, 'token-top': 'nope' }],
  ];
  for (const path of ['/api/v2/payin', '/api/v1/merchant/balance', '/api/v1/sandbox/payin/confirm']) {
    it.each(cases)(`401 error envelope on ${path}: %s`, (_name, headers) => {
      const method = path.includes('balance') ? 'GET' : 'POST';
      const r = sandbox.handle({ method, path, headers, body: '{}' });
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ code: '00', status: 'ERROR', error: 'UNAUTHORIZED' });
      expect(r.headers['www-authenticate']).toMatch(/^Basic/);
    });
  }

  it('merchant/me accepts Token-Top alone (the spec example), but not a wrong token', () => {
    expect(
      sandbox.handle({
        method: 'GET',
        path: '/api/v1/merchant/me',
        headers: { 'token-top': 'demo-co-token' },
      }).status,
    ).toBe(200);
    expect(
      sandbox.handle({ method: 'GET', path: '/api/v1/merchant/me', headers: { 'token-top': 'x' } }).status,
    ).toBe(401);
  });

  it('header names are case-insensitive', () => {
    const r = sandbox.handle({
      method: 'GET',
      path: '/api/v1/merchant/balance',
      headers: { Authorization: auth, 'Token-Top': 'demo-co-token' },
    });
    expect(r.status).toBe(200);
  });
});

describe('create and lookup errors (not shown by the spec; docs/simulator.md)', () => {
  it('422 VALIDATION_ERROR names the fields, using the SDK schemas', () => {
    const c = setup();
    const r = c.post('/api/v2/payin', payIn({ currency: 'PEN', customer_data: { email: 'bad' } }));
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({ code: '00', status: 'ERROR', error: 'VALIDATION_ERROR' });
    expect(String(r.json.message)).toMatch(/customer_data\.email/);
  });

  it("422 VALIDATION_ERROR when country is not the merchant's", () => {
    const c = setup();
    const r = c.post(
      '/api/v2/payin',
      payIn({
        country: 'PE',
        currency: 'PEN',
        payment_method: 'QR',
        customer_data: { ...payIn().customer_data, legal_doc_type: 'DNI' },
      }),
    );
    expect(r.json.error).toBe('VALIDATION_ERROR');
    expect(String(r.json.message)).toMatch(/country/);
  });

  it('422 DUPLICATE_REFERENCE: references are unique per merchant (across PayIn and PayOut)', () => {
    const c = setup({
      merchants: [
        { username: 'demo-co', password: 'p', token: 't', country: 'CO', balance: 1e6 },
        { username: 'b', password: 'p', token: 'b', country: 'CO' },
      ],
    });
    const body = payIn();
    expect(c.post('/api/v2/payin', body).status).toBe(200);
    expect(c.post('/api/v2/payin', body).json.error).toBe('DUPLICATE_REFERENCE');
    expect(c.post('/api/v1/payout', payOut({ reference: body.reference })).json.error).toBe(
      'DUPLICATE_REFERENCE',
    );
    // Another merchant may use the same reference.
    expect(c.post('/api/v2/payin', body, 'b').status).toBe(200);
  });

  it('PayOut destination rules: PE bank catalog, MX CLABE account type and check digit', () => {
    const merchants = [
      { username: 'pe', password: 'p', token: 'pe', country: 'PE' as const, balance: 1e6 },
      { username: 'mx', password: 'p', token: 'mx', country: 'MX' as const, balance: 1e6 },
    ];
    const c = setup({ merchants });
    const pe = payOut({
      country: 'PE',
      currency: 'PEN',
      customer_data: { ...payOut().customer_data, legal_doc_type: 'DNI', bank: 'BANCO_INVENTADO' },
    });
    const peR = c.post('/api/v1/payout', pe, 'pe');
    expect(peR.json.error).toBe('VALIDATION_ERROR');
    expect(String(peR.json.message)).toMatch(/sandbox bank catalog/);
    const mxBase = { country: 'MX', currency: 'MXN', payment_method: 'SPEI' };
    const customer = { ...payOut().customer_data, legal_doc_type: 'INE', bank: 'STP' };
    for (const bad of [
      {
        ...customer,
        account_type: 'AHORRO',
        account_number: '002010077777777771',
        clabe_number: '002010077777777771',
      },
      {
        ...customer,
        account_type: 'CLABE',
        account_number: '002010077777777772',
        clabe_number: '002010077777777772',
      },
    ]) {
      const r = c.post('/api/v1/payout', payOut({ ...mxBase, customer_data: bad }), 'mx');
      expect(r.status).toBe(422);
      expect(r.json.error).toBe('VALIDATION_ERROR');
    }
    expect(data(c.get('/api/v1/merchant/balance', 'mx')).balance).toBe(1e6);
  });

  it('lookup of an unknown ticket: 404 NOT_FOUND envelope; unknown route: 404; wrong method: 405', () => {
    const c = setup();
    expect(c.get('/api/v1/transaction/nope').status).toBe(404);
    expect(c.get('/api/v1/transaction/nope').json.error).toBe('NOT_FOUND');
    expect(c.get('/api/v9/nothing').status).toBe(404);
    const r = c.get('/api/v2/payin');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('POST');
  });
});
