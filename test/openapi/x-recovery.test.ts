/**
 * The document states exactly what the code enforces: every field `x-recovery` lists is one a
 * lost create's lookup must match (changing it in the looked-up transaction makes the create's
 * outcome unknown), and every other field of the transaction is not checked (changing it still
 * recovers). Run through the HTTP boundary: a fetch stub plays the service, the create's answer
 * is cut after the service accepted it, and the lookup answers the transaction under test.
 */
import { describe, expect, it } from 'vitest';
import { ConnectionError } from '../../src/index.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { stubbedClient } from '../property/responses.js';

interface Row {
  request: string;
  found: string;
  compare: string;
  required: string;
}
interface XRecovery {
  kind: string;
  key: string;
  match: Row[];
}

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { operationId: string; 'x-recovery'?: XRecovery }>>;
};
const recoveries = Object.values(document.paths)
  .flatMap((item) => Object.values(item))
  .filter((op) => op['x-recovery'])
  .map((op) => ({ id: op.operationId, recovery: op['x-recovery'] as XRecovery }));

const customer = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Pérez',
};
const PARAMS: Record<string, Record<string, unknown>> = {
  'payin.create': {
    reference: 'x-1',
    amount: 50_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'x',
    customer_data: customer,
    ipn_url: 'https://m.example/ipn',
    redirect_url: 'https://m.example/back',
  },
  'payin.createLegacy': {
    reference: 'x-1',
    amount: 150_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'PSE',
    customer_data: customer,
    ipn_url: 'https://m.example/ipn',
    redirect_url: 'https://m.example/back',
  },
  'payout.create': {
    reference: 'x-1',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BANK_TRANSFER',
    ipn_url: 'https://m.example/ipn',
    customer_data: { ...customer, bank: 'BANCOLOMBIA', account_number: '123', account_type: 'AHORRO' },
  },
};

function get(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], value);
}
function set(value: Record<string, unknown>, path: string, to: unknown): void {
  const keys = path.split('.');
  const last = keys.pop() as string;
  let target = value;
  for (const key of keys) {
    target[key] ??= {};
    target = target[key] as Record<string, unknown>;
  }
  target[last] = to;
}

/** The transaction the service would show for `params`: every x-recovery field as sent, plus facts no row names. */
function faithful(params: Record<string, unknown>, recovery: XRecovery): Record<string, unknown> {
  const found: Record<string, unknown> = {
    ticket: 'T-1',
    status: 'PENDING',
    date: '2025-01-15 10:30:00',
    type_transaction: recovery.kind,
    customer: { full_name: 'Someone', email: 'x@example.com', phone_number: '1' },
    description: 'whatever',
  };
  for (const row of recovery.match) {
    const value = get(params, row.request);
    if (value !== undefined) set(found, row.found, value);
  }
  return found;
}

/** Every leaf path of a transaction, dotted. */
function leaves(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    v !== null && typeof v === 'object'
      ? leaves(v as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

async function createAgainst(id: string, found: unknown) {
  let posts = 0;
  const client = stubbedClient(async (input) => {
    const url = String(input instanceof Request ? input.url : input);
    if (url.includes('/transaction/')) {
      return new Response(JSON.stringify({ code: '01', status: 'SUCCESS', message: '', data: found }), {
        headers: { 'content-type': 'application/json' },
      });
    }
    posts++;
    return new Response('{"code":"01","data":{"ticket":"T-1"', { status: 200 });
  });
  const [resource, method] = id.split('.') as ['payin' | 'payout', 'create' | 'createLegacy'];
  type Create = (p: unknown) => Promise<{ recovered?: boolean }>;
  const target = client[resource] as unknown as Record<string, Create>;
  const call = target[method] as Create;
  const outcome = await call.call(target, PARAMS[id]).then(
    (value) => ({ recovered: value.recovered === true }),
    (error: unknown) => ({ error }),
  );
  expect(posts).toBe(1);
  return outcome;
}

describe('x-recovery states exactly what the code enforces', () => {
  it('documents every create the client reconciles', () => {
    expect(recoveries.map((r) => r.id).sort()).toEqual(Object.keys(PARAMS).sort());
  });

  for (const { id, recovery } of recoveries) {
    it(`${id}: the faithful transaction is recovered`, async () => {
      expect(await createAgainst(id, faithful(PARAMS[id] as Record<string, unknown>, recovery))).toEqual({
        recovered: true,
      });
    });

    it(`${id}: every listed field is checked (changed, the outcome is unknown)`, async () => {
      const checked = [...recovery.match.map((row) => row.found), 'type_transaction'];
      for (const path of checked) {
        const found = faithful(PARAMS[id] as Record<string, unknown>, recovery);
        set(
          found,
          path,
          path === 'type_transaction' ? (recovery.kind === 'PAYIN' ? 'PAYOUT' : 'PAYIN') : '999',
        );
        const outcome = await createAgainst(id, found);
        expect(outcome, path).toHaveProperty('error');
        const error = (outcome as { error: ConnectionError }).error;
        expect(error, path).toBeInstanceOf(ConnectionError);
        expect(error.outcome, path).toBe('unknown');
      }
    });

    it(`${id}: no other field is checked (changed, still recovered)`, async () => {
      const listed = new Set([...recovery.match.map((row) => row.found), 'type_transaction', 'ticket']);
      const found0 = faithful(PARAMS[id] as Record<string, unknown>, recovery);
      const others = leaves(found0).filter((path) => !listed.has(path));
      expect(others.length).toBeGreaterThan(3);
      for (const path of others) {
        const found = faithful(PARAMS[id] as Record<string, unknown>, recovery);
        set(found, path, path === 'status' ? 'APPROVED' : 'changed-999');
        expect(await createAgainst(id, found), path).toEqual({ recovered: true });
      }
    });
  }
});
