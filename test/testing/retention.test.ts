/**
 * `maxTransactions` (`payinout sandbox --max-transactions N`): beyond N the oldest final
 * transactions and their webhook deliveries are forgotten, never a CREATED or PENDING one.
 * Through the simulator's request core, as a client sees it.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { createSandbox } from '../../src/testing/index.js';
import { type Caller, data, payIn, setup } from './helpers.js';

function create(caller: Caller, reference: string): string {
  const answer = caller.post('/api/v2/payin', payIn({ reference }));
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return data(answer).ticket as string;
}

function approve(caller: Caller, ticket: string): void {
  const answer = caller.post('/api/v1/sandbox/payin/confirm', {
    transaction_id: ticket,
    payment_method: 'BREB',
    status: 'APPROVED',
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
}

const found = (caller: Caller, id: string) => caller.get(`/api/v1/transaction/${id}`).status;
const references = (caller: Caller) => [...caller.sandbox.transactions.values()].map((t) => t.reference);

describe('maxTransactions', () => {
  it('drops the oldest final transactions and their deliveries, keeps every pending one', async () => {
    const caller = setup({ maxTransactions: 5 });
    for (const reference of ['a', 'b', 'c']) create(caller, reference);
    for (const reference of ['d', 'e', 'f', 'g', 'h', 'i']) approve(caller, create(caller, reference));
    expect(references(caller)).toEqual(['a', 'b', 'c', 'h', 'i']);
    expect(caller.sandbox.droppedTransactions).toBe(4);
    for (const reference of ['d', 'e', 'f', 'g']) {
      expect(found(caller, reference)).toBe(404);
      expect(caller.sandbox.getTransaction(reference)).toBeUndefined();
    }
    for (const reference of ['a', 'h']) expect(found(caller, reference)).toBe(200);
    // Webhook deliveries (recorded, webhooks off) of the dropped ones are gone with them.
    expect(caller.sandbox.deliveries.map((d) => d.reference)).toEqual(['h', 'i']);
    // A forgotten reference may be used again.
    create(caller, 'd');
    expect(found(caller, 'd')).toBe(200);
  });

  it('never drops a pending transaction, even far beyond the limit; drops it once it is final', () => {
    const caller = setup({ maxTransactions: 2 });
    const tickets = ['p1', 'p2', 'p3', 'p4'].map((reference) => create(caller, reference));
    expect(caller.sandbox.transactions.size).toBe(4);
    expect(caller.sandbox.droppedTransactions).toBe(0);
    approve(caller, tickets[0]!);
    expect(references(caller)).toEqual(['p2', 'p3', 'p4']);
    approve(caller, tickets[3]!);
    expect(references(caller)).toEqual(['p2', 'p3']);
    expect(caller.sandbox.droppedTransactions).toBe(2);
  });

  it('a transaction passed over while pending goes before newer final ones once it is final', () => {
    const caller = setup({ maxTransactions: 3 });
    const old = create(caller, 'old');
    for (const reference of ['b', 'c', 'd']) approve(caller, create(caller, reference));
    expect(references(caller)).toEqual(['old', 'c', 'd']);
    approve(caller, old);
    expect(references(caller)).toEqual(['old', 'c', 'd']);
    approve(caller, create(caller, 'e'));
    expect(references(caller)).toEqual(['c', 'd', 'e']);
  });

  it('stays bounded over many creates: transactions, deliveries and lookups', () => {
    const caller = setup({ maxTransactions: 500 });
    for (let i = 0; i < 6_000; i++) approve(caller, create(caller, `bulk-${i}`));
    const { sandbox } = caller;
    expect(sandbox.transactions.size).toBe(500);
    expect(sandbox.droppedTransactions).toBe(5_500);
    expect(references(caller)[0]).toBe('bulk-5500');
    // Each delivery record kept belongs to a kept transaction; the dropped ones are compacted away.
    const kept = sandbox.deliveries.filter((d) => sandbox.transactions.has(d.ticket));
    expect(kept).toHaveLength(500);
    expect(sandbox.deliveries).toHaveLength(500);
    expect(found(caller, 'bulk-5499')).toBe(404);
    expect(found(caller, 'bulk-5999')).toBe(200);
  });

  it('refuses a limit that is not a positive integer', () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() => createSandbox({ maxTransactions: bad })).toThrow(ConfigurationError);
    }
    expect(() => createSandbox({ maxTransactions: 0 })).toThrow(/maxTransactions must be a positive integer/);
  });
});
