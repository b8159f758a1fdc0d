/**
 * Creates under every fault: the typed outcome, the request order at the server, and the
 * invariant "never two create POSTs without a lookup between them; one transaction per reference".
 */
import { describe, expectTypeOf, it } from 'vitest';
import {
  ConnectionError,
  type PayInCreated,
  type PayOutCreated,
  RateLimitError,
  ServerError,
  TimeoutError,
  type Transaction,
  UnprocessableEntityError,
} from '../../src/index.js';
import { CREATE_METHODS, nextReference, payoutParams, settle } from './methods.js';
import { checkInvariant, type QueuedFault, startFaultServer } from './server.js';

type Outcome = 'created' | 'recovered' | (abstract new (...args: never[]) => Error);

interface Case {
  name: string;
  faults: QueuedFault[];
  /** Request order with P = the create POST, L = the lookup of its reference. */
  order: string;
  outcome: Outcome;
  transactions: 0 | 1;
  maxRetries?: number;
  rejectDuplicates?: boolean;
  /** The error must say the outcome is unknown and name the reference. */
  unknown?: boolean;
}

const post = (fault: QueuedFault['fault']): QueuedFault => ({ method: 'POST', fault });
const get = (fault: QueuedFault['fault']): QueuedFault => ({ method: 'GET', fault });
const retryNow = { 'retry-after': '0' };

const CASES: Case[] = [
  {
    name: 'drop without answer (not committed)',
    faults: [post({ kind: 'drop' })],
    order: 'P L P',
    outcome: 'created',
    transactions: 1,
  },
  {
    name: 'drop after commit',
    faults: [post({ kind: 'drop-after-commit' })],
    order: 'P L',
    outcome: 'recovered',
    transactions: 1,
  },
  {
    name: '503 (not committed)',
    faults: [post({ kind: 'status', status: 503, headers: retryNow })],
    order: 'P L P',
    outcome: 'created',
    transactions: 1,
  },
  {
    name: '500 after commit',
    faults: [post({ kind: 'status', status: 500, commit: true, headers: retryNow })],
    order: 'P L',
    outcome: 'recovered',
    transactions: 1,
  },
  {
    name: '408',
    faults: [post({ kind: 'status', status: 408, headers: retryNow })],
    order: 'P L P',
    outcome: 'created',
    transactions: 1,
  },
  {
    name: '429 + Retry-After: 0, then lookup, then resend',
    faults: [post({ kind: 'status', status: 429, headers: retryNow })],
    order: 'P L P',
    outcome: 'created',
    transactions: 1,
  },
  {
    name: 'HTML 502 page',
    faults: [post({ kind: 'html' })],
    order: 'P L P',
    outcome: 'created',
    transactions: 1,
  },
  {
    name: 'truncated JSON on a 200',
    faults: [post({ kind: 'truncated' })],
    order: 'P L',
    outcome: 'recovered',
    transactions: 1,
  },
  {
    name: 'slow headers (timeout)',
    faults: [post({ kind: 'slow-headers', ms: 3000 })],
    order: 'P L',
    outcome: 'recovered',
    transactions: 1,
  },
  {
    name: 'slow body (timeout covers the body)',
    faults: [post({ kind: 'slow-body', ms: 3000 })],
    order: 'P L',
    outcome: 'recovered',
    transactions: 1,
  },
  {
    name: 'reset mid-body',
    faults: [post({ kind: 'reset-mid-body' })],
    order: 'P L',
    outcome: 'recovered',
    transactions: 1,
  },
  {
    name: 'wrong content type',
    faults: [post({ kind: 'wrong-content-type' })],
    order: 'P',
    outcome: 'created',
    transactions: 1,
  },
  {
    name: '422 validation is final',
    faults: [post({ kind: 'status', status: 422, error: 'VALIDATION_ERROR' })],
    order: 'P',
    outcome: UnprocessableEntityError,
    transactions: 0,
  },
  {
    name: 'lookup unreachable → outcome unknown',
    faults: [post({ kind: 'drop' }), get({ kind: 'drop' }), get({ kind: 'drop' })],
    order: 'P L L',
    outcome: ConnectionError,
    transactions: 0,
    unknown: true,
  },
  {
    name: 'committed, lookup unreachable → outcome unknown',
    faults: [post({ kind: 'drop-after-commit' }), get({ kind: 'html' }), get({ kind: 'html' })],
    order: 'P L L',
    outcome: ConnectionError,
    transactions: 1,
    unknown: true,
  },
  {
    name: 'every POST dropped: resent once, then the last error',
    faults: [post({ kind: 'drop' }), post({ kind: 'drop' })],
    order: 'P L P L',
    outcome: ConnectionError,
    transactions: 0,
    unknown: true,
  },
  {
    name: 'maxRetries 0: looked up, not resent',
    faults: [post({ kind: 'status', status: 503, headers: retryNow })],
    order: 'P L',
    outcome: ServerError,
    transactions: 0,
    maxRetries: 0,
  },
  {
    name: 'slow commit: the resend is refused as a duplicate, a second lookup recovers it',
    faults: [post({ kind: 'drop-commit-late' })],
    order: 'P L P L',
    outcome: 'recovered',
    transactions: 1,
    rejectDuplicates: true,
  },
  {
    name: '429 with Retry-After beyond 60 s: looked up, never resent',
    faults: [post({ kind: 'status', status: 429, headers: { 'retry-after': '120' } })],
    order: 'P L',
    outcome: RateLimitError,
    transactions: 0,
  },
  {
    name: 'timeout while the lookup also times out',
    faults: [
      post({ kind: 'slow-headers', ms: 3000 }),
      get({ kind: 'slow-headers', ms: 3000 }),
      get({ kind: 'slow-body', ms: 3000 }),
    ],
    order: 'P L L',
    outcome: ConnectionError,
    transactions: 1,
    unknown: true,
  },
];

for (const method of CREATE_METHODS) {
  describe.concurrent(`${method.name} under faults`, () => {
    for (const c of CASES) {
      it(c.name, async ({ expect, onTestFinished }) => {
        const server = await startFaultServer({ rejectDuplicates: c.rejectDuplicates ?? false });
        onTestFinished(() => server.close());
        server.queue(...c.faults);
        const reference = nextReference(method.name);
        const client = server.client({ maxRetries: c.maxRetries ?? 1, timeoutMs: 1_500 });
        const { value, error } = await settle(method.call(client, reference));

        const expected = c.order
          .split(' ')
          .map((step) => (step === 'P' ? `POST ${method.path}` : `GET /api/v1/transaction/${reference}`));
        expect(server.order()).toEqual(expected);
        expect(checkInvariant(server, reference)).toEqual([]);
        expect(server.countFor(reference)).toBe(c.transactions);

        if (c.outcome === 'created' || c.outcome === 'recovered') {
          expect(error).toBeUndefined();
          const result = value as Record<string, unknown> & { lastResponse: { attempts: number } };
          expect(result.lastResponse.attempts).toBe(expected.length);
          expect((result.transaction as { reference: string }).reference).toBe(reference);
          expect(result.ticket).toBe(server.transactions.find((t) => t.reference === reference)?.ticket);
          if (c.outcome === 'recovered') {
            expect(result.recovered).toBe(true);
            expect(result.payment_url).toBeUndefined();
            expect((result.recoveredTransaction as { ticket: string }).ticket).toBe(result.ticket);
            // Enumerable fields: the created shape plus `recovered`, nothing of the lookup itself.
            expect(Object.keys(result).sort()).toEqual(['date', 'recovered', 'ticket', 'transaction']);
            expect(result.transaction).toMatchObject({
              amount: expect.any(Number),
              currency: 'COP',
              payment_method: expect.any(String),
            });
          } else {
            expect(result.recovered).toBeUndefined();
          }
          return;
        }
        expect(error).toBeInstanceOf(c.outcome);
        const failure = error as { attempts?: number; reference?: string; outcome?: string; message: string };
        expect(failure.attempts).toBe(expected.length);
        if (c.unknown) {
          expect(failure.outcome).toBe('unknown');
          expect(failure.reference).toBe(reference);
          expect(failure.message).toContain(reference);
          expect(failure.message).toMatch(/look it up|look reference/);
        }
      });
    }

    it('connection refused (not sent) is resent without a lookup', async ({ expect, onTestFinished }) => {
      const server = await startFaultServer();
      onTestFinished(() => server.close());
      let calls = 0;
      const refusingOnce: typeof fetch = (input, init) => {
        if (++calls === 1) {
          const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1'), { code: 'ECONNREFUSED' });
          return Promise.reject(new TypeError('fetch failed', { cause }));
        }
        return fetch(input, init);
      };
      const reference = nextReference(method.name);
      const client = server.client({ maxRetries: 1, fetch: refusingOnce });
      const result = (await method.call(client, reference)) as { lastResponse: { attempts: number } };
      expect(server.order()).toEqual([`POST ${method.path}`]);
      expect(result.lastResponse.attempts).toBe(2);
      expect(server.countFor(reference)).toBe(1);
    });

    it('connection refused every time: ConnectionError outcome not_sent, nothing looked up', async ({
      expect,
    }) => {
      const server = await startFaultServer();
      const closedPort = server.baseUrl;
      await server.close();
      const reference = nextReference(method.name);
      const client = server.client({ maxRetries: 1, baseUrl: closedPort });
      const { error } = await settle(method.call(client, reference));
      expect(error).toBeInstanceOf(ConnectionError);
      expect(error).not.toBeInstanceOf(TimeoutError);
      expect((error as ConnectionError).outcome).toBe('not_sent');
      expect((error as ConnectionError).attempts).toBe(2);
      expect(server.log).toEqual([]);
    });
  });
}

describe('typing of a recoverable create result', () => {
  it('is derived from zod: the created type plus optional recovered / recoveredTransaction', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({ method: 'POST', fault: { kind: 'drop-after-commit' } });
    const client = server.client();
    const reference = nextReference('typed');
    const payout = await client.payout.create(payoutParams(reference));
    expectTypeOf(payout).toExtend<PayOutCreated>();
    expectTypeOf(payout.recovered).toEqualTypeOf<true | undefined>();
    expectTypeOf(payout.recoveredTransaction).toEqualTypeOf<Transaction | undefined>();
    expectTypeOf<ReturnType<typeof client.payin.create>>().resolves.toExtend<PayInCreated>();
    expect(payout.recovered).toBe(true);
    expect(payout.recoveredTransaction?.reference).toBe(reference);
    expect(JSON.parse(JSON.stringify(payout))).toEqual({
      ticket: payout.ticket,
      date: payout.date,
      transaction: { reference, amount: 20_000, currency: 'COP', payment_method: 'BANK_TRANSFER' },
      recovered: true,
    });
  });
});
