/**
 * Each createMany item is validated once (issue 25, item 3): the PayOut schema checks the item
 * before its lookup, and its create sends those checked params as they are, without parsing them
 * again. Counted at the schema (every parse of this package goes through kit.ts `safeParse`),
 * with the service behind msw.
 */
import { describe, expect, it, vi } from 'vitest';
import { PayOutCreateParamsSchema } from '../../src/schemas/payout.js';
import { payoutCO } from '../helpers/fixtures.js';
import { answer, fail, makeClient, okEchoing, recorded, useMsw } from '../helpers/msw.js';

const parsed = vi.hoisted(() => [] as unknown[]);
vi.mock('../../src/schemas/kit.js', async (importOriginal) => {
  const kit = await importOriginal<typeof import('../../src/schemas/kit.js')>();
  return {
    ...kit,
    safeParse: ((schema, data) => {
      parsed.push(schema);
      return kit.safeParse(schema, data);
    }) as typeof kit.safeParse,
  };
});

useMsw();

describe('createMany validates each item once', () => {
  it('one PayOut schema parse per item, and the body sent is the checked params', async () => {
    answer('get', '/api/v1/transaction/:id', () => fail(404, { message: 'Transaction not found' }));
    answer('post', '/api/v1/payout', okEchoing({ ticket: 't-1', transaction: {} }));
    const items = [1, 2, 3].map((n) => ({ ...payoutCO, reference: ` bulk-${n} ` }));
    parsed.length = 0;
    const results = await makeClient().payout.createMany(items, { concurrency: 2 });
    expect(results.map((r) => [r.reference, r.outcome])).toEqual([
      ['bulk-1', 'created'],
      ['bulk-2', 'created'],
      ['bulk-3', 'created'],
    ]);
    expect(parsed.filter((schema) => schema === PayOutCreateParamsSchema)).toHaveLength(3);
    // What the one parse made of the item (its reference trimmed) is what went on the wire.
    const posted = recorded
      .filter((r) => r.method === 'POST')
      .map((r) => (r.body as { reference: string }).reference);
    expect(posted.sort()).toEqual(['bulk-1', 'bulk-2', 'bulk-3']);
  });

  it('a single payout.create still validates its params itself', async () => {
    answer('post', '/api/v1/payout', okEchoing({ ticket: 't-1', transaction: {} }));
    parsed.length = 0;
    await makeClient().payout.create({ ...payoutCO, reference: 'one-1' });
    expect(parsed.filter((schema) => schema === PayOutCreateParamsSchema)).toHaveLength(1);
    await expect(makeClient().payout.create({ ...payoutCO, amount: 'x' } as never)).rejects.toMatchObject({
      name: 'RequestValidationError',
    });
  });
});
