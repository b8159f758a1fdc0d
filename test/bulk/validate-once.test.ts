/**
 * Each createMany item is validated once (issue 25, item 3): the PayOut schema checks the item
 * before its lookup, and its create sends those checked params as they are, without parsing them
 * again. Counted at the schema (every parse of this package goes through kit.ts `safeParse`),
 * with the service behind msw.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runPayOutBatch } from '../../src/bulk/batch.js';
import type { PayOutBatchResult } from '../../src/bulk/types.js';
import { readRows } from '../../src/cli/payouts-csv.js';
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

  it('a CSV row (payinout payouts send) is parsed once as it is read, and not again when it is sent', async () => {
    answer('get', '/api/v1/transaction/:id', () => fail(404, { message: 'Transaction not found' }));
    answer('post', '/api/v1/payout', okEchoing({ ticket: 't-1', transaction: {} }));
    const rows = (await readFile(join(import.meta.dirname, '../../examples/bulk-payouts.csv'), 'utf8'))
      .trim()
      .split('\n')
      .slice(0, 4);
    const dir = await mkdtemp(join(tmpdir(), 'payinout-once-'));
    const file = join(dir, 'rows.csv');
    await writeFile(file, `${rows.join('\n')}\n`);
    parsed.length = 0;
    const items: unknown[] = [];
    for await (const row of readRows(file)) items.push(row.params);
    const whenRead = parsed.filter((schema) => schema === PayOutCreateParamsSchema).length;
    expect(whenRead).toBe(3);
    const client = makeClient();
    const results: PayOutBatchResult[] = [];
    await runPayOutBatch(
      {
        create: (params, options) => client.payout.create(params, options),
        lookup: (reference, options) => client.transactions.get(reference, options),
        maxRetries: 0,
      },
      items,
      { total: items.length, sink: (r) => void results.push(r) },
    );
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created']);
    expect(parsed.filter((schema) => schema === PayOutCreateParamsSchema)).toHaveLength(whenRead);
    await rm(dir, { recursive: true, force: true });
  });
});
