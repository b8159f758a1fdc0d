/**
 * Every response schema of the operations table is tolerant through the kit: for each one, each
 * field the schema requires is dropped in turn from a valid answer (served by msw). Default mode:
 * the call succeeds and the logger warns about that field. Strict mode: a ResponseValidationError
 * naming it. The required fields are read from the schema itself, so a field added later is
 * walked too; a schema the table gains without a caller here fails the suite.
 */
import { describe, expect, it, vi } from 'vitest';
import type { OperationId } from '../../src/api/operations.js';
import { OPERATION_LIST } from '../../src/api/operations.js';
import type { PaymentClient } from '../../src/index.js';
import { type Logger, ResponseValidationError } from '../../src/index.js';
import type { ResponseSchema, Schema } from '../../src/schemas/kit.js';
import { payinCO, payoutCO, transaction } from '../helpers/fixtures.js';
import { answer, makeClient, ok, useMsw } from '../helpers/msw.js';

useMsw();

interface Caller {
  method: 'get' | 'post';
  path: string;
  /** A complete, valid `data` for this operation. */
  data: unknown;
  /** The call; `dropped` is the field the answer lacks (a lookup then asks by the field it keeps). */
  call(client: PaymentClient, dropped?: string): Promise<unknown>;
}

const echoOf = (params: { reference: string; amount: number; currency: string; payment_method: string }) => ({
  reference: params.reference,
  amount: params.amount,
  currency: params.currency,
  payment_method: params.payment_method,
});

/** One caller per operation that has a client method (the POST lookup shares the GET's schema). */
const CALLERS: Partial<Record<OperationId, Caller>> = {
  'payin.create': {
    method: 'post',
    path: '/api/v2/payin',
    data: { ticket: 'T-1', date: '2026-11-21 10:00:00', transaction: echoOf(payinCO) },
    call: (c) => c.payin.create(payinCO),
  },
  'payout.create': {
    method: 'post',
    path: '/api/v1/payout',
    data: { ticket: 'T-2', date: '2026-11-21 10:00:00', transaction: echoOf(payoutCO) },
    call: (c) => c.payout.create(payoutCO),
  },
  'payin.listPseBanks': {
    method: 'get',
    path: '/api/v1/pse/banks',
    data: [{ code: '1007', name: 'Bancolombia' }],
    call: (c) => c.payin.listPseBanks(),
  },
  'merchant.getProfile': {
    method: 'get',
    path: '/api/v1/merchant/me',
    data: { name: 'Shop', nit: '900123', email: 'shop@example.com', currency: 'COP', wallet: 10 },
    call: (c) => c.merchant.getProfile(),
  },
  'merchant.getBalance': {
    method: 'get',
    path: '/api/v1/merchant/balance',
    data: { currency: 'COP', balance: 1234567.89, balance_formatted: 'COP 1.234.567,89' },
    call: (c) => c.merchant.getBalance(),
  },
  'transactions.get': {
    method: 'get',
    path: '/api/v1/transaction/:id',
    data: transaction,
    // The lookup returns the transaction whose ticket or reference is the id: without its ticket,
    // it is asked for by reference.
    call: (c, dropped) =>
      c.transactions.get(dropped === 'ticket' ? transaction.reference : transaction.ticket),
  },
  'sandbox.confirmPayIn': {
    method: 'post',
    path: '/api/v1/sandbox/payin/confirm',
    data: { transaction_id: 'T-1', payment_method: 'BREB', status: 'APPROVED' },
    call: (c) =>
      c.sandbox.confirmPayIn({ transaction_id: 'T-1', payment_method: 'BREB', status: 'APPROVED' }),
  },
  'sandbox.confirmPayOut': {
    method: 'post',
    path: '/api/v1/sandbox/payout/confirm',
    data: { transaction_id: 'T-2', payment_method: 'BANK_TRANSFER', status: 'REJECTED' },
    call: (c) =>
      c.sandbox.confirmPayOut({ transaction_id: 'T-2', payment_method: 'BANK_TRANSFER', status: 'REJECTED' }),
  },
};

interface ZodInternals {
  _zod: { def: Record<string, unknown> & { type: string }; optin?: 'optional' };
}
const internals = (schema: unknown) => (schema as ZodInternals)._zod;

/** Paths (`transaction.reference`, `0.code`) of every field the schema requires, nested ones included. */
function requiredPaths(schema: unknown, prefix: string[] = []): string[][] {
  const { def } = internals(schema);
  switch (def.type) {
    case 'pipe':
      return requiredPaths(def.out, prefix);
    case 'array':
      return requiredPaths(def.element, [...prefix, '0']);
    case 'object':
      return Object.entries(def.shape as Record<string, unknown>).flatMap(([key, field]) =>
        internals(field).optin === 'optional'
          ? []
          : [[...prefix, key], ...requiredPaths(field, [...prefix, key])],
      );
    default:
      return [];
  }
}

/** A deep copy of `data` without the field at `path`. */
function without(data: unknown, path: readonly string[]): unknown {
  const copy = structuredClone(data) as Record<string, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string, unknown>;
  delete parent[path[path.length - 1]!];
  return copy;
}

function logger() {
  return { debug: vi.fn(), info: vi.fn(), warn: vi.fn<Logger['warn']>(), error: vi.fn() } satisfies Logger;
}

/** Each distinct response schema once, with the first operation that has a caller. */
const schemas = new Map<ResponseSchema<Schema>, OperationId[]>();
for (const operation of OPERATION_LIST) {
  schemas.set(operation.response, [...(schemas.get(operation.response) ?? []), operation.id as OperationId]);
}
const cases = [...schemas.entries()].map(([schema, ids]) => {
  const id = ids.find((candidate) => CALLERS[candidate]);
  return { ids, id, schema, caller: id && CALLERS[id] };
});

it('every response schema of the table has a caller in this suite', () => {
  expect(cases.filter((c) => !c.caller).map((c) => c.ids.join(' / '))).toEqual([]);
});

describe.each(cases.filter((c) => c.caller))('$id', ({ schema, caller }) => {
  const required = requiredPaths(schema.tolerant);
  const { method, path, data, call } = caller!;

  it('the complete answer passes in strict mode, and the walk finds required fields', async () => {
    answer(method, path, () => ok(data));
    await expect(call(makeClient({ strictResponses: true }))).resolves.toBeDefined();
    expect(required.length).toBeGreaterThan(0);
  });

  it.each(required.map((field) => [field.join('.'), field] as const))(
    'without %s: default mode succeeds and warns; strict mode names it',
    async (name, field) => {
      answer(method, path, () => ok(without(data, field)));
      const log = logger();
      await expect(call(makeClient({ logger: log }), name)).resolves.toBeDefined();
      const warned = log.warn.mock.calls.map((c) => (c[1] as { field?: string } | undefined)?.field);
      expect(warned).toContain(`data.${name}`);

      const error = await call(makeClient({ strictResponses: true }), name).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ResponseValidationError);
      const issues = (error as ResponseValidationError).issues.map((issue) => issue.path);
      expect(issues.some((issuePath) => issuePath.endsWith(name))).toBe(true);
      expect((error as Error).message).toContain(name);
    },
  );
});
