import { describe, expect, it } from 'vitest';
import { NotFoundError, RequestValidationError, TimeoutError } from '../../src/index.js';
import { transaction } from '../helpers/fixtures.js';
import { answer, BASE_URL, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();

describe('client.transactions.get', () => {
  it('GET /api/v1/transaction/{id}, URL-encoding the id', async () => {
    answer('get', '/api/v1/transaction/:id', ({ params }) => ok({ ...transaction, reference: params.id }));
    const tx = await makeClient().transactions.get('order 10/01?x');
    expect(recorded[0]!.method).toBe('GET');
    expect(recorded[0]!.url.href).toBe(`${BASE_URL}/api/v1/transaction/order%2010%2F01%3Fx`);
    expect(tx.reference).toBe('order 10/01?x');
  });

  it('returns one Transaction whether data is an object or a one-element array', async () => {
    answer('get', '/api/v1/transaction/:id', () => ok([transaction]));
    const tx = await makeClient().transactions.get(transaction.ticket);
    expect(Array.isArray(tx)).toBe(false);
    expect(tx.ticket).toBe(transaction.ticket);
    expect(tx.customer?.legal_doc).toBe('1020304050');
  });

  it('picks the matching element of a longer array', async () => {
    const other = { ...transaction, ticket: 'other', reference: 'other-ref' };
    answer('get', '/api/v1/transaction/:id', () => ok([other, transaction]));
    expect((await makeClient().transactions.get('order-1001')).ticket).toBe(transaction.ticket);
  });

  it('reads an empty data array as NotFoundError', async () => {
    answer('get', '/api/v1/transaction/:id', () => ok([]));
    await expect(makeClient().transactions.get('missing')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('client.transactions.waitForFinalStatus', () => {
  it('polls until the status is final', async () => {
    const statuses = ['CREATED', 'PENDING', 'APPROVED'];
    answer('get', '/api/v1/transaction/:id', () => ok({ ...transaction, status: statuses.shift() }));
    const tx = await makeClient().transactions.waitForFinalStatus('order-1001', { intervalMs: 1 });
    expect(tx.status).toBe('APPROVED');
    expect(recorded).toHaveLength(3);
  });

  it('throws TimeoutError naming the last status', async () => {
    answer('get', '/api/v1/transaction/:id', () => ok(transaction));
    const error = await makeClient()
      .transactions.waitForFinalStatus('order-1001', { intervalMs: 5, timeoutMs: 30 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error.message).toMatch(/still PENDING/);
  });

  it('stops when the signal aborts, with the caller’s reason', async () => {
    answer('get', '/api/v1/transaction/:id', () => ok(transaction));
    const controller = new AbortController();
    const reason = new Error('shutting down');
    setTimeout(() => controller.abort(reason), 30);
    const error = await makeClient()
      .transactions.waitForFinalStatus('order-1001', { intervalMs: 10_000, signal: controller.signal })
      .catch((e) => e);
    expect(error).toBe(reason);
    expect(recorded).toHaveLength(1);
  });
});

describe('client.transactions: ids', () => {
  it.each(['', '   ', '\uD800bad'])('refuses %j with RequestValidationError, sending nothing', async (id) => {
    await expect(makeClient().transactions.get(id)).rejects.toBeInstanceOf(RequestValidationError);
    await expect(makeClient().transactions.waitForFinalStatus(id)).rejects.toBeInstanceOf(
      RequestValidationError,
    );
    expect(recorded).toHaveLength(0);
  });
});
