/**
 * Request validation on arbitrary input: a call either sends the request (the input was valid)
 * or rejects with RequestValidationError having sent nothing. Never a TypeError, never a send
 * of something the schema refused. fast-check, 10,000 runs per method.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PaymentClient, RequestValidationError, StatusNotSupportedError } from '../../src/index.js';
import { stubbedClient } from './responses.js';

const RUNS = 10_000;

const created = {
  ticket: 'T-1',
  date: '2025-01-15 10:30:00',
  transaction: { reference: 'r', amount: 1, currency: 'COP', payment_method: 'BREB' },
};
const confirmed = { transaction_id: 't', payment_method: 'QR', status: 'APPROVED' };

/** A create's answer echoes what was sent, as the service's does (an answer echoing anything else is not proof). */
function echoing(data: unknown, sent: string | undefined): unknown {
  const record = data as { transaction?: Record<string, unknown> };
  if (!record.transaction || sent === undefined) return data;
  const { reference, amount, currency } = JSON.parse(sent) as Record<string, unknown>;
  return { ...record, transaction: { ...record.transaction, reference, amount, currency } };
}

/** A client whose fetch counts the requests that got through validation. */
function countingClient(data: unknown) {
  const state = { sent: 0 };
  const fetchStub: typeof fetch = async (_input, init) => {
    state.sent++;
    const answer = echoing(data, typeof init?.body === 'string' ? init.body : undefined);
    return new Response(JSON.stringify({ code: '01', status: 'SUCCESS', message: '', data: answer }), {
      headers: { 'content-type': 'application/json' },
    });
  };
  return { client: stubbedClient(fetchStub), state };
}

/** Anything at all, including null-prototype objects, boxed values, sparse arrays, bigints, dates. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});

const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Pérez',
};
const urls = { ipn_url: 'https://m.example/ipn', redirect_url: 'https://m.example/back' };

/** Valid requests, one per rule family (country table, PSE direct, legacy limits, Mexico SPEI). */
const PAYIN_BASES = [
  {
    reference: 'o-1',
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'x',
    customer_data: customer,
    ...urls,
  },
  {
    reference: 'o-2',
    amount: 15_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'PSE',
    description: 'x',
    customer_data: { ...customer, bank: '1007', person_type: 'NATURAL' },
    ...urls,
  },
  {
    reference: 'o-3',
    amount: 120,
    currency: 'PEN',
    country: 'PE',
    payment_method: 'QR',
    description: 'x',
    customer_data: { ...customer, legal_doc_type: 'DNI' },
    ...urls,
  },
  {
    reference: 'o-4',
    amount: 500,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    description: 'x',
    customer_data: { ...customer, legal_doc_type: 'INE' },
    expiration_time: 30,
  },
];
const PAYOUT_BASES = [
  {
    payment_method: 'BANK_TRANSFER',
    reference: 'p-1',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    ipn_url: urls.ipn_url,
    customer_data: {
      ...customer,
      bank: 'BANCOLOMBIA',
      account_number: '12345678901',
      account_type: 'AHORRO',
    },
  },
  {
    payment_method: 'SPEI',
    reference: 'p-2',
    amount: 300,
    currency: 'MXN',
    country: 'MX',
    ipn_url: urls.ipn_url,
    customer_data: {
      ...customer,
      bank: 'STP',
      account_number: '002010077777777771',
      clabe_number: '002010077777777771',
      account_type: 'CLABE',
    },
  },
  {
    payment_method: 'BANK_TRANSFER',
    reference: 'p-3',
    amount: 10,
    currency: 'PEN',
    country: 'PE',
    ipn_url: urls.ipn_url,
    customer_data: {
      ...customer,
      legal_doc_type: 'DNI',
      bank: 'BCP',
      account_number: '1',
      account_type: 'WALLET',
    },
    metadata: { order: 1 },
  },
];
const CONFIRM_BASES = [
  { transaction_id: 'T-1', payment_method: 'QR', status: 'EXPIRED' },
  { transaction_id: 'T-2', payment_method: 'BANK_TRANSFER', status: 'REJECTED' },
  { transaction_id: 'T-3', payment_method: 'BREB', status: 'APPROVED' },
];

const DELETE = Symbol('delete');
/** Plausible-but-wrong values next to arbitrary ones: they reach the cross-field rules. */
const plausible = fc.constantFrom(
  '',
  ' ',
  'CO',
  'PE',
  'MX',
  'GT',
  'COP',
  'PEN',
  'MXN',
  'USD',
  'PSE',
  'CARD',
  'SPEI',
  'CLABE',
  'NIT',
  'JURIDICA',
  '+57',
  'x@y',
  0,
  -1,
  1.5,
  2_000_001,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  null,
);
const value = fc.oneof(anything, plausible, fc.constant(DELETE));

/** A valid base with 0–3 fields (top level or customer_data) replaced or removed. */
function mutated(bases: Record<string, unknown>[]): fc.Arbitrary<unknown> {
  const keys = [...new Set(bases.flatMap((b) => Object.keys(b)))];
  const customerKeys = [
    ...Object.keys(customer),
    'bank',
    'person_type',
    'account_number',
    'account_type',
    'clabe_number',
  ];
  const path = fc.oneof(
    fc.constantFrom(...keys).map((k) => [k]),
    fc.constantFrom(...customerKeys).map((k) => ['customer_data', k]),
  );
  return fc
    .tuple(fc.constantFrom(...bases), fc.array(fc.tuple(path, value), { maxLength: 3 }))
    .map(([base, edits]) => {
      const out = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
      for (const [[first, second], v] of edits) {
        const target = second === undefined ? out : out[first!];
        const key = second ?? first!;
        if (target === null || typeof target !== 'object') continue;
        if (v === DELETE) delete (target as Record<string, unknown>)[key];
        else
          Object.defineProperty(target, key, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
      }
      return out;
    });
}

const createParams = mutated(PAYIN_BASES);
const payoutParams = mutated(PAYOUT_BASES);
const confirmParams = mutated(CONFIRM_BASES);

type Call = (client: PaymentClient, input: never) => Promise<unknown>;

const METHODS: Array<{ name: string; input: fc.Arbitrary<unknown>; data: unknown; call: Call }> = [
  { name: 'payin.create', input: createParams, data: created, call: (c, p) => c.payin.create(p) },
  { name: 'payin.createLegacy', input: createParams, data: created, call: (c, p) => c.payin.createLegacy(p) },
  { name: 'payout.create', input: payoutParams, data: created, call: (c, p) => c.payout.create(p) },
  {
    name: 'sandbox.confirmPayIn',
    input: confirmParams,
    data: confirmed,
    call: (c, p) => c.sandbox.confirmPayIn(p),
  },
  {
    name: 'sandbox.confirmPayOut',
    input: confirmParams,
    data: confirmed,
    call: (c, p) => c.sandbox.confirmPayOut(p),
  },
];

describe('request validation never throws anything but RequestValidationError', () => {
  for (const method of METHODS) {
    it(`${method.name}: ${RUNS} arbitrary inputs`, async () => {
      const { client, state } = countingClient(method.data);
      const outcomes = { sent: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(
          fc.oneof({ arbitrary: method.input, weight: 4 }, { arbitrary: anything, weight: 1 }),
          async (input) => {
            const before = state.sent;
            let error: unknown;
            try {
              // Promise.resolve().then: a synchronous throw counts as a failure like a rejection.
              await Promise.resolve().then(() => method.call(client, input as never));
            } catch (caught) {
              error = caught;
            }
            if (error === undefined) {
              outcomes.sent++;
              return state.sent === before + 1;
            }
            outcomes.refused++;
            // The sandbox's supported-status table is also checked client-side (documented), nothing sent.
            const allowed =
              error instanceof RequestValidationError ||
              (method.name.startsWith('sandbox') && error instanceof StatusNotSupportedError);
            if (!allowed) throw error;
            return (
              state.sent === before && (!(error instanceof RequestValidationError) || error.issues.length > 0)
            );
          },
        ),
        { numRuns: RUNS },
      );
      // Both branches were exercised, or the property proved little.
      expect(outcomes.sent).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    }, 60_000);
  }
});
