/**
 * The runner for "many" (src/bulk/runner.ts) as a caller outside src/bulk/ uses it — the way
 * payinout/bullmq runs a queue chunk: its own shared pause and halt, its own sink, a step from
 * src/bulk/. Lookups go to msw, so what is counted is what reached the service.
 */
import { delay, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { BatchHalt } from '../../src/bulk/halt.js';
import { lookupStep } from '../../src/bulk/lookups.js';
import type { AroundItem } from '../../src/bulk/run.js';
import { runMany, runOne } from '../../src/bulk/runner.js';
import type { SharedPause } from '../../src/core/types.js';
import type { TransactionLookupResult } from '../../src/index.js';
import { AuthenticationError, LookupHaltedError } from '../../src/index.js';
import { transaction } from '../helpers/fixtures.js';
import { answer, makeClient, ok, recorded, useMsw } from '../helpers/msw.js';

useMsw();

const OUTCOMES = ['found', 'notFound', 'failed'] as const;
const countOf = (r: TransactionLookupResult) => (r.outcome === 'not_found' ? 'notFound' : r.outcome);

/** A pause kept by the caller (as the queue keeps one in Redis): it records what it is asked. */
class RecordingPause implements SharedPause {
  until = 0;
  readonly asked: number[] = [];
  pauseUntil(epochMs: number): void {
    this.asked.push(epochMs);
    this.until = Math.max(this.until, epochMs);
  }
  async ready(): Promise<void> {
    const wait = this.until - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

function serve(limitedOnce?: string) {
  let told = false;
  answer('get', '/api/v1/transaction/:id', async ({ params }) => {
    const id = String(params.id);
    await delay(id.endsWith('-slow') ? 40 : 2);
    if (id === limitedOnce && !told) {
      told = true;
      const body = { code: '00', status: 'ERROR', message: 'Too many requests' };
      return HttpResponse.json(body, { status: 429, headers: { 'retry-after': '1' } });
    }
    return ok({ ...transaction, ticket: `t-${id}`, reference: id, status: 'PENDING' });
  });
}

describe('runMany with a caller-supplied pause, halt and sink', () => {
  it('hands every result to the sink in input order, waits for it, and reports progress', async () => {
    serve();
    const client = makeClient();
    const ids = ['a-slow', 'b', 'c', 'd-slow', 'e'];
    const sunk: string[] = [];
    const progress: number[] = [];
    const summary = await runMany(
      ids,
      lookupStep((id, o) => client.transactions.get(id, o)),
      {
        concurrency: 3,
        total: ids.length,
        counts: OUTCOMES,
        countOf,
        onProgress: (p) => progress.push(p.done),
        sink: async (result, index) => {
          await delay(5); // a slow sink (a file write): the run waits for it
          sunk.push(`${index}:${result.id}`);
        },
      },
    );
    expect(sunk).toEqual(['0:a-slow', '1:b', '2:c', '3:d-slow', '4:e']);
    expect(progress).toEqual([1, 2, 3, 4, 5]);
    expect(summary).toEqual({ done: 5, total: 5, found: 5, notFound: 0, failed: 0 });
  });

  it("a 429's Retry-After goes to the caller's pause, which every lane then waits on", async () => {
    serve('p-1');
    const pause = new RecordingPause();
    const client = makeClient({ maxRetries: 0 });
    const ids = ['p-0', 'p-1', 'p-2', 'p-3', 'p-4', 'p-5'];
    const before = Date.now();
    const results: TransactionLookupResult[] = [];
    await runMany(
      ids,
      lookupStep((id, o) => client.transactions.get(id, o)),
      {
        concurrency: 2,
        total: ids.length,
        counts: OUTCOMES,
        countOf,
        pause,
        sink: (r) => void results.push(r),
      },
    );
    expect(results.map((r) => r.outcome)).toEqual(ids.map(() => 'found'));
    expect(pause.asked).toHaveLength(1);
    expect(pause.asked[0]! - before).toBeGreaterThanOrEqual(900);
    expect(recorded).toHaveLength(7); // p-1 twice: before and after the pause
  });

  it("a halt the caller supplies, already stopped (another worker's 401), sends nothing", async () => {
    serve();
    const halt = new BatchHalt();
    const refused = new AuthenticationError({
      status: 401,
      body: undefined,
      method: 'GET',
      path: '/api/v1/transaction/x',
      attempts: 1,
    });
    expect(halt.consider(refused)).toBe(true);
    const client = makeClient();
    const results: TransactionLookupResult[] = [];
    const summary = await runMany(
      ['h-0', 'h-1'],
      lookupStep((id, o) => client.transactions.get(id, o)),
      {
        total: 2,
        counts: OUTCOMES,
        countOf,
        halt,
        sink: (r) => void results.push(r),
      },
    );
    expect(results.map((r) => r.error)).toEqual([
      expect.any(LookupHaltedError),
      expect.any(LookupHaltedError),
    ]);
    expect(recorded).toHaveLength(0);
    expect(summary.stopped).toMatch(/refused the credentials \(HTTP 401\)/);
  });

  describe('an `around` wrapper (a span per item) may cost its span, never a result, a second lookup or a hang', () => {
    const wrappers: Record<string, AroundItem<TransactionLookupResult>> = {
      'throws before calling settle': () => {
        throw new Error('exporter down');
      },
      'throws after settle': async (_item, _index, settle) => {
        await settle();
        throw new Error('span.end failed');
      },
      'forgets to return': async (_item, _index, settle) => {
        await settle();
        return undefined as never;
      },
      'calls settle twice': async (_item, _index, settle) => {
        await settle();
        return settle();
      },
      'never calls settle': async () => undefined as never,
      'never ends once settle has run': (_item, _index, settle) => {
        void settle();
        return new Promise<never>(() => {});
      },
    };
    for (const [what, around] of Object.entries(wrappers)) {
      it(what, async () => {
        serve();
        const client = makeClient();
        const ids = ['w-0', 'w-1', 'w-2'];
        const results: TransactionLookupResult[] = [];
        const summary = await runMany(
          ids,
          lookupStep((id, o) => client.transactions.get(id, o)),
          {
            concurrency: 2,
            total: ids.length,
            counts: OUTCOMES,
            countOf,
            around,
            sink: (r) => void results.push(r),
          },
        );
        expect(results.map((r) => [r.id, r.outcome, r.transaction?.ticket])).toEqual(
          ids.map((id) => [id, 'found', `t-${id}`]),
        );
        expect(summary).toMatchObject({ done: 3, found: 3 });
        expect(recorded.map((r) => r.url.pathname.split('/').at(-1)).sort()).toEqual(ids);
      });
      it(`${what} (runOne: a queue job of one PayOut)`, async () => {
        serve();
        const client = makeClient();
        const result = await runOne(
          'w-one',
          lookupStep((id, o) => client.transactions.get(id, o)),
          { around },
        );
        expect([result.id, result.outcome, result.transaction?.ticket]).toEqual([
          'w-one',
          'found',
          't-w-one',
        ]);
        expect(recorded.map((r) => r.url.pathname.split('/').at(-1))).toEqual(['w-one']);
      });
    }
  });
});
