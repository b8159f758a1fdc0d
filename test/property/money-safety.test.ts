/**
 * Money safety as properties, through a fetch stub playing the service:
 * - transactions.get(x) on any list the service answers returns an element whose ticket or
 *   reference is x (trimmed), or fails with NotFoundError / AmbiguousTransactionError;
 * - a create whose answer is lost is `recovered: true` only when the looked-up transaction shows
 *   the reference as sent, the kind, amount, currency, payment method and document; any other
 *   lookup answer is `outcome: 'unknown'` (or a resend after NotFoundError), never someone else's.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AmbiguousTransactionError, ConnectionError, NotFoundError } from '../../src/index.js';
import { stubbedClient } from './responses.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 300);
const TIMEOUT = 120_000;
const ids = fc.constantFrom('r-1', 'r-2', 'T-1', 'T-2', ' r-1 ', 'R-1', 'r-1x');
const item = fc.record({
  ticket: fc.constantFrom('T-1', 'T-2', 'T-3'),
  reference: fc.constantFrom('r-1', 'r-2', 'r-1 ', 'other'),
  amount: fc.constant(50_000),
  currency: fc.constant('COP'),
  status: fc.constantFrom('PENDING', 'APPROVED'),
  date: fc.constant('2025-01-15 10:30:00'),
});
const envelope = (data: unknown) =>
  new Response(JSON.stringify({ code: '01', status: 'SUCCESS', message: '', data }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });

describe('property: transactions.get(x) returns x or fails', () => {
  it(
    'for any list or object the service answers',
    async () => {
      const shape = fc.oneof(fc.array(item, { maxLength: 4 }), item);
      await fc.assert(
        fc.asyncProperty(shape, ids, async (data, id) => {
          const client = stubbedClient(async () => envelope(data));
          const wanted = id.trim();
          const list = Array.isArray(data) ? data : [data];
          const matches = list.filter((t) => t.ticket.trim() === wanted || t.reference.trim() === wanted);
          const outcome = await client.transactions.get(id).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          if ('value' in outcome) {
            expect(matches).toHaveLength(1);
            const tx = outcome.value;
            expect(tx.ticket.trim() === wanted || tx.reference.trim() === wanted).toBe(true);
          } else if (matches.length === 0) {
            expect(outcome.error).toBeInstanceOf(NotFoundError);
          } else {
            expect(outcome.error).toBeInstanceOf(AmbiguousTransactionError);
            for (const m of matches) expect((outcome.error as Error).message).toContain(m.ticket);
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});

const sent = {
  payment_method: 'BANK_TRANSFER' as const,
  reference: 'r-1',
  amount: 20_000,
  currency: 'COP' as const,
  country: 'CO' as const,
  ipn_url: 'https://m.example/ipn',
  customer_data: {
    legal_doc: '1020304050',
    legal_doc_type: 'CC' as const,
    phone_code: '57',
    phone_number: '3001234567',
    email: 'ana@example.com',
    full_name: 'Ana',
    bank: 'BANCOLOMBIA',
    account_number: '123',
    account_type: 'AHORRO' as const,
  },
};
const faithful = {
  ticket: 'T-9',
  reference: 'r-1',
  amount: 20_000,
  currency: 'COP',
  type_transaction: 'PAYOUT',
  payment_method: 'BANK_TRANSFER',
  customer: { legal_doc: '1020304050', legal_doc_type: 'CC' },
  status: 'PENDING',
  date: '2025-01-15 10:30:00',
};
/** One fact of the found transaction, kept or replaced by another value. */
const mutation = fc.record(
  {
    reference: fc.constantFrom('r-1', 'r-2'),
    amount: fc.constantFrom(20_000, '20000.00', 20_001, 2_000),
    currency: fc.constantFrom('COP', 'PEN'),
    type_transaction: fc.constantFrom('PAYOUT', 'PAYIN', 'payout', 'Dispersión'),
    payment_method: fc.constantFrom('BANK_TRANSFER', 'BREB'),
    legal_doc: fc.constantFrom('1020304050', '999'),
  },
  { requiredKeys: [] },
);

describe('property: a recovered create is always the merchant’s own transaction', () => {
  it(
    'for any looked-up variant of the transaction',
    async () => {
      await fc.assert(
        fc.asyncProperty(mutation, fc.boolean(), async (change, asList) => {
          const { legal_doc, ...rest } = change;
          const found = {
            ...faithful,
            ...rest,
            customer: { ...faithful.customer, ...(legal_doc ? { legal_doc } : {}) },
          };
          let posts = 0;
          const client = stubbedClient(async (input) => {
            const url = String(input instanceof Request ? input.url : input);
            if (url.includes('/transaction/')) return envelope(asList ? [found] : found);
            posts++;
            // Accepted, answer cut short: looked up at once (no backoff), never resent.
            return new Response('{"code":"01","data":{"ticket":"T-9"', { status: 200 });
          });
          const proven =
            found.reference === 'r-1' &&
            Number(found.amount) === 20_000 &&
            found.currency === 'COP' &&
            found.type_transaction.toUpperCase() !== 'PAYIN' &&
            found.payment_method === 'BANK_TRANSFER' &&
            found.customer.legal_doc === '1020304050';
          const outcome = await client.payout.create(sent).then(
            (value) => ({ value }),
            (error: unknown) => ({ error }),
          );
          expect(posts).toBe(1);
          if (proven) expect('value' in outcome && outcome.value.recovered).toBe(true);
          else {
            expect('error' in outcome).toBe(true);
            expect((outcome as { error: unknown }).error).toBeInstanceOf(ConnectionError);
            expect((outcome as { error: ConnectionError }).error.outcome).toBe('unknown');
          }
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
