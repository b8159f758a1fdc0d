/**
 * Money safety of reconciliation and lookups, through a real node:http service double:
 * what is sent is what is reconciled; a recovered result is provably the merchant's own
 * transaction; evidence of a double create is never hidden; transactions.get(x) returns x or fails.
 */
import { describe, it } from 'vitest';
import {
  AmbiguousTransactionError,
  ConnectionError,
  NotFoundError,
  type PaymentClient,
  RequestValidationError,
} from '../../src/index.js';
import { customer, nextReference, payinParams, payoutParams, settle } from './methods.js';
import { checkInvariant, type StoredTransaction, startFaultServer } from './server.js';

const drop = { method: 'POST' as const, fault: { kind: 'drop' as const } };
const dropAfterCommit = { method: 'POST' as const, fault: { kind: 'drop-after-commit' as const } };

describe('what is sent is what is reconciled', () => {
  it('a reference with surrounding blanks is sent trimmed and looked up trimmed: recovered, one POST', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const reference = nextReference('trim');
    server.queue(dropAfterCommit);
    const result = await server
      .client()
      .payout.create({ ...payoutParams(reference), reference: `  ${reference}\t` });
    expect(result.recovered).toBe(true);
    expect(server.order()).toEqual(['POST /api/v1/payout', `GET /api/v1/transaction/${reference}`]);
    expect((server.log[0]!.body as { reference: string }).reference).toBe(reference);
    expect(checkInvariant(server, reference)).toEqual([]);
  });

  it('with validateRequests off, the raw reference is sent and the same raw reference is looked up', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const raw = ` ${nextReference('raw')} `;
    server.queue(dropAfterCommit);
    const client = server.client({ validateRequests: false });
    const result = await client.payin.create({ ...payinParams(raw), reference: raw });
    expect(result.recovered).toBe(true);
    expect(decodeURIComponent(server.log[1]!.path)).toBe(`/api/v1/transaction/${raw}`);
    expect(server.countFor(raw)).toBe(1);
  });
});

describe('a recovered result is provably the same transaction', () => {
  const reference = 'shared-ref';
  const mine = {
    reference,
    amount: 20_000,
    currency: 'COP',
    type_transaction: 'PAYOUT',
    payment_method: 'BANK_TRANSFER',
    customer: { legal_doc: customer.legal_doc, legal_doc_type: customer.legal_doc_type },
  };
  const cases: Array<[string, Record<string, unknown>]> = [
    ['another amount', { amount: 20_001 }],
    ['another currency', { currency: 'PEN' }],
    ['another kind (a PAYIN)', { type_transaction: 'PAYIN' }],
    ['another kind, spelled "Pay In"', { type_transaction: 'Pay In' }],
    ['another payment method', { payment_method: 'BREB' }],
    ['another customer document', { customer: { legal_doc: '9999999999', legal_doc_type: 'CC' } }],
    ['no amount shown', { amount: undefined }],
  ];
  for (const [name, change] of cases) {
    it(`${name}: ConnectionError outcome 'unknown', never recovered, never resent`, async ({
      expect,
      onTestFinished,
    }) => {
      const server = await startFaultServer({ seed: [{ ...mine, ...change }] });
      onTestFinished(() => server.close());
      server.queue(drop);
      const { value, error } = await settle(server.client().payout.create(payoutParams(reference)));
      expect(value).toBeUndefined();
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).toMatchObject({ outcome: 'unknown', reference });
      expect((error as Error).message).toMatch(/not proven|unknown/);
      expect((error as Error).message).not.toContain('9999999999');
      expect(server.order()).toEqual(['POST /api/v1/payout', `GET /api/v1/transaction/${reference}`]);
    });
  }

  it('every fact matching (type_transaction PAYOUT, method, document): recovered', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer({ seed: [mine] });
    onTestFinished(() => server.close());
    server.queue(drop);
    const result = await server.client().payout.create(payoutParams(reference));
    expect(result).toMatchObject({
      recovered: true,
      ticket: 'T-1',
      transaction: { reference, amount: 20_000 },
    });
  });
});

describe('evidence of a double create is never hidden', () => {
  it('a lookup showing two transactions with the reference: an error naming both tickets', async ({
    expect,
    onTestFinished,
  }) => {
    const reference = 'twice';
    const seed = { reference, amount: 50_000, currency: 'COP', type_transaction: 'PAYIN' };
    const server = await startFaultServer({ seed: [seed, seed], lookup: 'matches' });
    onTestFinished(() => server.close());
    server.queue(drop);
    const { error } = await settle(server.client().payin.create(payinParams(reference)));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({ outcome: 'unknown', reference });
    expect((error as Error).message).toMatch(/T-1/);
    expect((error as Error).message).toMatch(/T-2/);
    expect((error as { recovered?: unknown }).recovered).toBeUndefined();
  });
});

describe('transactions.get(x) returns x or fails', () => {
  const seed = [
    { reference: 'other-1', status: 'APPROVED' },
    { reference: 'wanted', status: 'PENDING' },
    { reference: 'other-2', status: 'REJECTED' },
  ];
  const start = async (
    onTestFinished: (fn: () => Promise<void>) => void,
    lookup: 'all' | 'matches',
    extra: Partial<StoredTransaction>[] = seed,
  ) => {
    const server = await startFaultServer({ seed: extra, lookup });
    onTestFinished(() => server.close());
    return { server, client: server.client({ maxRetries: 0 }) as PaymentClient };
  };

  it('picks the element whose reference is x from a list of several transactions', async ({
    expect,
    onTestFinished,
  }) => {
    const { client } = await start(onTestFinished, 'all');
    await expect(client.transactions.get('wanted')).resolves.toMatchObject({
      reference: 'wanted',
      ticket: 'T-2',
    });
    await expect(client.transactions.get('T-3')).resolves.toMatchObject({ reference: 'other-2' });
    await expect(client.transactions.get('  wanted ')).resolves.toMatchObject({ reference: 'wanted' });
  });

  it('no element is x: NotFoundError that claims no 404 the service did not send', async ({
    expect,
    onTestFinished,
  }) => {
    const { client } = await start(onTestFinished, 'all', [{ reference: 'someone-else' }]);
    const { error } = await settle(client.transactions.get('wanted'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 200 });
    expect((error as Error).message).toMatch(/wanted/);
  });

  it('several elements are x: AmbiguousTransactionError naming their tickets', async ({
    expect,
    onTestFinished,
  }) => {
    const { client } = await start(onTestFinished, 'matches', [{ reference: 'dup' }, { reference: 'dup' }]);
    const { error } = await settle(client.transactions.get('dup'));
    expect(error).toBeInstanceOf(AmbiguousTransactionError);
    expect(error).toMatchObject({ tickets: ['T-1', 'T-2'] });
    expect((error as Error).message).toMatch(/T-1.*T-2/);
  });

  it('waitForFinalStatus never resolves on another transaction’s final status', async ({
    expect,
    onTestFinished,
  }) => {
    const { server, client } = await start(onTestFinished, 'all');
    const waiting = settle(
      client.transactions.waitForFinalStatus('wanted', { intervalMs: 20, timeoutMs: 400 }),
    );
    setTimeout(() => {
      const tx = server.transactions.find((t) => t.reference === 'wanted');
      if (tx) tx.status = 'EXPIRED';
    }, 100);
    const { value } = await waiting;
    expect(value).toMatchObject({ reference: 'wanted', status: 'EXPIRED' });
  });

  it('a blank id is refused before sending', async ({ expect, onTestFinished }) => {
    const { server, client } = await start(onTestFinished, 'all');
    await expect(client.transactions.get('   ')).rejects.toBeInstanceOf(RequestValidationError);
    expect(server.log).toEqual([]);
  });
});
