import { describe, expect, it } from 'vitest';
import {
  isValidClabe,
  PayInCreateParamsSchema,
  PayInLegacyCreateParamsSchema,
  PayOutCreateParamsSchema,
} from '../../src/index.js';
import { safeParse } from '../../src/schemas/kit.js';
import { customerCO, payinCO, payoutCO, payoutMX, VALID_CLABE } from '../helpers/fixtures.js';

/** Field paths a schema reports for a value ([] when valid). */
function paths(
  schema: { safeParse(v: unknown): { success: boolean; error?: { issues: { path: PropertyKey[] }[] } } },
  value: unknown,
) {
  // The package's own parse (per-key issues for unknown keys), as the client and simulator use it.
  const result = safeParse(schema as Parameters<typeof safeParse>[0], value);
  return result.success ? [] : result.error!.issues.map((i) => i.path.join('.')).sort();
}
const payin = (patch: Record<string, unknown>) => paths(PayInCreateParamsSchema, { ...payinCO, ...patch });
const payinCustomer = (patch: Record<string, unknown>) =>
  payin({ customer_data: { ...customerCO, ...patch } });
const payout = (patch: Record<string, unknown>, base = payoutCO) =>
  paths(PayOutCreateParamsSchema, { ...base, ...patch });
const payoutCustomer = (patch: Record<string, unknown>, base = payoutCO) =>
  payout({ customer_data: { ...base.customer_data, ...patch } }, base);

describe('PayIn request validation', () => {
  it('accepts the documented example', () => expect(payin({})).toEqual([]));

  it.each(['reference', 'amount', 'currency', 'country', 'payment_method', 'description', 'customer_data'])(
    'requires %s',
    (field) => expect(payin({ [field]: undefined })).toContain(field),
  );

  it.each(['legal_doc', 'legal_doc_type', 'phone_code', 'phone_number', 'email', 'full_name'])(
    'requires customer_data.%s',
    (field) => expect(payinCustomer({ [field]: undefined })).toEqual([`customer_data.${field}`]),
  );

  it.each([
    ['CO', 'COP'],
    ['PE', 'PEN'],
    ['MX', 'MXN'],
    ['GT', 'GTQ'],
    ['HN', 'HNL'],
  ])('pairs %s with %s and nothing else', (country, currency) => {
    const method = { CO: 'PSE', PE: 'QR', MX: 'SPEI', GT: 'ANYTHING', HN: 'ANYTHING' }[country];
    const doc = { CO: 'CC', PE: 'DNI' }[country] ?? 'XYZ';
    const customer_data = { ...customerCO, legal_doc_type: doc };
    expect(payin({ country, currency, payment_method: method, customer_data })).toEqual([]);
    const wrong = currency === 'COP' ? 'PEN' : 'COP';
    expect(payin({ country, currency: wrong, payment_method: method, customer_data })).toEqual(['currency']);
  });

  it('checks the method against the country table; GT/HN accept any method', () => {
    expect(payin({ payment_method: 'QR' })).toEqual(['payment_method']);
    expect(
      payin({
        country: 'PE',
        currency: 'PEN',
        payment_method: 'PSE',
        customer_data: { ...customerCO, legal_doc_type: 'DNI' },
      }),
    ).toEqual(['payment_method']);
    expect(payin({ country: 'GT', currency: 'GTQ', payment_method: 'WHATEVER' })).toEqual([]);
  });

  it('checks the document type per country; MX/GT/HN accept any non-empty string', () => {
    expect(payinCustomer({ legal_doc_type: 'NIT' })).toEqual(['customer_data.legal_doc_type']);
    expect(
      payin({
        country: 'MX',
        currency: 'MXN',
        payment_method: 'SPEI',
        customer_data: { ...customerCO, legal_doc_type: 'CURP' },
      }),
    ).toEqual([]);
    expect(
      payin({
        country: 'MX',
        currency: 'MXN',
        payment_method: 'SPEI',
        customer_data: { ...customerCO, legal_doc_type: ' ' },
      }),
    ).toEqual(['customer_data.legal_doc_type']);
  });

  it('PSE direct: bank and person_type go together', () => {
    const pse = { payment_method: 'PSE' };
    expect(payin({ ...pse, customer_data: { ...customerCO, bank: '1022', person_type: 'NATURAL' } })).toEqual(
      [],
    );
    expect(payin({ ...pse, customer_data: customerCO })).toEqual([]);
    expect(payin({ ...pse, customer_data: { ...customerCO, bank: '1022' } })).toEqual([
      'customer_data.person_type',
    ]);
    expect(payin({ ...pse, customer_data: { ...customerCO, person_type: 'JURIDICA' } })).toEqual([
      'customer_data.bank',
    ]);
    expect(payin({ ...pse, customer_data: { ...customerCO, bank: '1022', person_type: 'EMPRESA' } })).toEqual(
      ['customer_data.person_type'],
    );
    expect(payin({ customer_data: { ...customerCO, bank: '1022', person_type: 'NATURAL' } })).toEqual([
      'customer_data.bank',
    ]);
  });

  it('every rule reports: a half PSE pair on a card PayIn is named twice, beside a too-fine amount', () => {
    // An issue a refinement reports lets the checks after it run: one that stopped them would hide
    // the second rule behind the first.
    const result = safeParse(PayInCreateParamsSchema, {
      ...payinCO,
      payment_method: 'CARD',
      amount: 100.125,
      customer_data: { ...customerCO, bank: '1022' },
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['amount', "must have at most 2 decimal places (the currency's minor unit)"],
      ['customer_data.person_type', 'is required: PSE direct needs both bank and person_type'],
      ['customer_data.bank', 'is only for PSE direct (payment_method PSE)'],
    ]);
  });

  it('amount must be a finite number above zero', () => {
    for (const amount of [0, -5, Number.NaN, Number.POSITIVE_INFINITY, '100'])
      expect(payin({ amount })).toEqual(['amount']);
    expect(payin({ amount: 0.5 })).toEqual([]);
  });

  it('phone_code is digits without a plus sign; expiration_time whole minutes; URLs absolute', () => {
    expect(payinCustomer({ phone_code: '+57' })).toEqual(['customer_data.phone_code']);
    expect(payin({ expiration_time: 1.5 })).toEqual(['expiration_time']);
    expect(payin({ expiration_time: 30 })).toEqual([]);
    expect(payin({ ipn_url: '/relative' })).toEqual(['ipn_url']);
  });

  it('refuses fields the spec does not list, at any depth', () => {
    expect(payin({ ipnUrl: 'https://x.example' })).toEqual(['ipnUrl']);
    expect(payinCustomer({ document: '1' })).toEqual(['customer_data.document']);
  });
});

describe('legacy PayIn limits (stated for v1 only)', () => {
  const legacy = (patch: Record<string, unknown>) =>
    paths(PayInLegacyCreateParamsSchema, { ...payinCO, ...patch });
  it('PSE ≥ 2,000, Efecty ≥ 10,000, any method ≤ 2,000,000, whole amounts, CO/PE only', () => {
    expect(legacy({ payment_method: 'PSE', amount: 1_999 })).toEqual(['amount']);
    expect(legacy({ payment_method: 'PSE', amount: 2_000 })).toEqual([]);
    expect(legacy({ payment_method: 'EFECTY', amount: 9_999 })).toEqual(['amount']);
    expect(legacy({ payment_method: 'EFECTY', amount: 10_000 })).toEqual([]);
    expect(legacy({ amount: 2_000_001 })).toEqual(['amount']);
    expect(legacy({ amount: 100.5 })).toEqual(['amount']);
    // A fractional amount below PSE's floor: both rules, each with its own message.
    const both = safeParse(PayInLegacyCreateParamsSchema, {
      ...payinCO,
      payment_method: 'PSE',
      amount: 1_999.5,
    });
    expect(both.error?.issues.map((i) => i.message)).toEqual([
      'must be a whole number',
      'must be at least 2000 for PSE',
    ]);
    // The country picks the shape; MX has none in v1, so the country alone is reported.
    expect(legacy({ country: 'MX', currency: 'MXN', payment_method: 'SPEI' })).toEqual(['country']);
    expect(legacy({ redirect_url: undefined, ipn_url: undefined })).toEqual(['ipn_url', 'redirect_url']);
  });
  it('the v2 PayIn does not apply the legacy limits', () =>
    expect(payin({ payment_method: 'PSE', amount: 10 })).toEqual([]));
});

describe('PayOut request validation', () => {
  it('accepts the documented examples', () => {
    expect(payout({})).toEqual([]);
    expect(payout({}, payoutMX)).toEqual([]);
  });

  it.each(['bank', 'account_number', 'account_type'])('requires customer_data.%s', (field) =>
    expect(payoutCustomer({ [field]: undefined })).toEqual([`customer_data.${field}`]),
  );

  it('requires ipn_url and checks methods per country', () => {
    expect(payout({ ipn_url: undefined })).toEqual(['ipn_url']);
    expect(payout({ payment_method: 'BREB' })).toEqual([]);
    expect(payout({ payment_method: 'SPEI' })).toEqual(['payment_method']);
  });

  it('CO PayOut adds NIT to the document types; PayIn does not', () => {
    expect(payoutCustomer({ legal_doc_type: 'NIT' })).toEqual([]);
    expect(payinCustomer({ legal_doc_type: 'NIT' })).toEqual(['customer_data.legal_doc_type']);
  });

  it('checks account types per country', () => {
    expect(payoutCustomer({ account_type: 'WALLET' })).toEqual(['customer_data.account_type']);
  });

  it('Mexico SPEI: CLABE account type, valid 18-digit CLABE, clabe_number equal to it', () => {
    expect(payoutCustomer({ account_type: 'AHORRO' }, payoutMX)).toEqual(['customer_data.account_type']);
    const bad = '002010077777777772';
    expect(payoutCustomer({ account_number: bad, clabe_number: bad }, payoutMX)).toEqual([
      'customer_data.account_number',
    ]);
    expect(payoutCustomer({ clabe_number: undefined }, payoutMX)).toEqual(['customer_data.clabe_number']);
    expect(payoutCustomer({ clabe_number: '646180157000000004' }, payoutMX)).toEqual([
      'customer_data.clabe_number',
    ]);
  });
});

describe('isValidClabe', () => {
  it('checks length, digits and the 3-7-1 check digit', () => {
    expect(isValidClabe(VALID_CLABE)).toBe(true);
    expect(isValidClabe('646180157000000004')).toBe(true);
    expect(isValidClabe('646180157000000005')).toBe(false);
    expect(isValidClabe('64618015700000000')).toBe(false);
    expect(isValidClabe('64618015700000000a')).toBe(false);
    expect(isValidClabe(646180157)).toBe(false);
  });
});
