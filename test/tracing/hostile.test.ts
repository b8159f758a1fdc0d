/**
 * Hostile tracers cost at most their spans (property-style): under any combination of a
 * `startActiveSpan` that throws, forgets the callback's value, returns something else, runs the
 * callback twice, late or never, and span methods that throw, return odd values or never
 * settle, every traced path gives the outcome and the POST count it gives without a tracer —
 * client calls, a create whose answer was lost (reconciliation), a 404, `createMany`, `getMany`
 * and webhook deliveries — and every span handed to payinout is ended exactly once. Through the
 * HTTP boundary: a real node:http service double and a real webhook receiver.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createWebhookHandler, type PaymentClient } from '../../src/index.js';
import { nextReference, payoutParams } from '../faults/methods.js';
import { type FaultServer, startFaultServer } from '../faults/server.js';
import { delivery, recordingLogger, sampleEvent, serveHandler, TOKEN } from '../webhooks/support.js';
import { hostileTracer, tracerFaults } from './hostile.js';

const RUNS = { numRuns: 24 };

/** What a caller can tell about a settled call, ignoring the reference it was made with. */
function shapeOf(value: unknown): unknown {
  if (value instanceof Error) {
    return { error: value.constructor.name, outcome: (value as { outcome?: unknown }).outcome };
  }
  const result = value as { recovered?: unknown; ticket?: unknown; lastResponse?: { status?: unknown } };
  return {
    type: typeof value,
    recovered: result?.recovered,
    ticket: typeof result?.ticket,
    status: result?.lastResponse?.status,
  };
}

const settle = (promise: Promise<unknown>) => promise.then(shapeOf, shapeOf);

/** POSTs that reached the service carrying `reference`. */
function posts(server: FaultServer, reference: string): number {
  return server.log.filter(
    (entry) => entry.method === 'POST' && JSON.stringify(entry.body).includes(reference),
  ).length;
}

interface Scenario {
  name: string;
  /** It waits a backoff: fewer runs. */
  slow?: boolean;
  run(client: PaymentClient, server: FaultServer): Promise<unknown>;
}

const SCENARIOS: Scenario[] = [
  {
    name: 'payout.create',
    run: async (client, server) => {
      const reference = nextReference('hostile-create');
      const outcome = await settle(client.payout.create(payoutParams(reference)));
      return { outcome, posts: posts(server, reference) };
    },
  },
  {
    name: 'payout.create whose answer was lost (reconciled by its lookup)',
    slow: true,
    run: async (client, server) => {
      const reference = nextReference('hostile-lost');
      server.queue({ method: 'POST', fault: { kind: 'drop-after-commit' } });
      const outcome = await settle(client.payout.create(payoutParams(reference)));
      return { outcome, posts: posts(server, reference), stored: server.countFor(reference) };
    },
  },
  {
    name: 'transactions.get of an unknown id (404)',
    run: async (client) => ({
      outcome: await settle(client.transactions.get(nextReference('hostile-none'))),
    }),
  },
  {
    name: 'merchant.getBalance after a 503 (a retried call)',
    slow: true,
    run: async (client, server) => {
      server.queue({ fault: { kind: 'status', status: 503 } });
      return { outcome: await settle(client.merchant.getBalance()) };
    },
  },
  {
    name: 'payout.createMany (one answer lost)',
    slow: true,
    run: async (client, server) => {
      const references = [1, 2, 3].map(() => nextReference('hostile-many'));
      server.queue({ method: 'POST', fault: { kind: 'drop-after-commit' } });
      const results = await client.payout.createMany(references.map(payoutParams), { concurrency: 1 });
      return {
        outcomes: results.map((r) => [r.outcome, r.error?.constructor.name]),
        posts: references.map((reference) => posts(server, reference)),
      };
    },
  },
  {
    name: 'transactions.getMany (one found, one absent)',
    run: async (client, server) => {
      const reference = nextReference('hostile-get');
      await server.client().payout.create(payoutParams(reference));
      const results = await client.transactions.getMany([reference, nextReference('hostile-absent')]);
      return { outcomes: results.map((r) => [r.outcome, r.transaction?.reference === reference]) };
    },
  },
];

describe('a hostile tracer costs at most its spans: client calls', () => {
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: same outcome and POSTs as untraced; each span ended once`, async ({
      onTestFinished,
    }) => {
      const server = await startFaultServer();
      onTestFinished(() => server.close());
      const expected = await scenario.run(server.client(), server);
      // A retry or a reconciliation waits its backoff (~0.5 s): fewer runs where one is taken.
      const runs = scenario.slow ? { numRuns: 10 } : RUNS;
      await fc.assert(
        fc.asyncProperty(tracerFaults, async (faults) => {
          const hostile = hostileTracer(faults);
          const got = await scenario.run(server.client({ tracer: hostile.tracer }), server);
          expect(got).toEqual(expected);
          await hostile.settled();
          expect(hostile.ends().filter((ends) => ends !== 1)).toEqual([]);
        }),
        runs,
      );
    }, 120_000);
  }
});

describe('a hostile tracer costs at most its spans: webhook deliveries', () => {
  it('a genuine delivery is answered 200 and handled once, its repeat 200 again, a forgery 401', async ({
    onTestFinished,
  }) => {
    const serve = async (tracer?: ReturnType<typeof hostileTracer>['tracer']) => {
      const handled: string[] = [];
      const handler = createWebhookHandler({
        token: TOKEN,
        logger: recordingLogger(),
        onEvent: (event) => {
          handled.push(event.top_ticket);
        },
        ...(tracer ? { tracer } : {}),
      });
      const served = await serveHandler(handler);
      onTestFinished(served.close);
      const genuine = delivery(sampleEvent({ top_ticket: nextReference('tk') }));
      const forged = delivery(sampleEvent(), 'not-the-token');
      const statuses = [
        (await served.post(genuine)).status,
        (await served.post(genuine)).status,
        (await served.post(forged)).status,
      ];
      return { statuses, handled: handled.length };
    };
    const expected = await serve();
    expect(expected).toEqual({ statuses: [200, 200, 401], handled: 1 });
    await fc.assert(
      fc.asyncProperty(tracerFaults, async (faults) => {
        const hostile = hostileTracer(faults);
        expect(await serve(hostile.tracer)).toEqual(expected);
        await hostile.settled();
        expect(hostile.ends().filter((ends) => ends !== 1)).toEqual([]);
      }),
      RUNS,
    );
  }, 120_000);
});

describe('a hostile logger costs at most its lines', () => {
  const throwing = {
    debug: () => {
      throw new Error('log sink full');
    },
    info: () => Promise.reject(new Error('log sink down')),
    warn: () => {
      throw new Error('log sink full');
    },
    error: () => {
      throw new Error('log sink full');
    },
  };
  for (const scenario of SCENARIOS) {
    it(`${scenario.name}: same outcome and POSTs as without a logger`, async ({ onTestFinished }) => {
      const server = await startFaultServer();
      onTestFinished(() => server.close());
      const expected = await scenario.run(server.client(), server);
      expect(await scenario.run(server.client({ logger: throwing }), server)).toEqual(expected);
    }, 30_000);
  }
});

describe('a hostile tracer beside a logger', () => {
  it('the logger hears every attempt (a lookup’s included) whatever the tracer does', async ({
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const lost = SCENARIOS.find((scenario) => scenario.name.startsWith('payout.create whose answer'))!;
    const logged = async (tracer?: ReturnType<typeof hostileTracer>['tracer']) => {
      const lines: string[] = [];
      const logger = { debug: (line: string) => lines.push(line), info() {}, warn() {}, error() {} };
      const seen = await lost.run(server.client({ logger, ...(tracer ? { tracer } : {}) }), server);
      // The reference differs per run: compare each line's method, outcome and attempt number.
      return { seen, lines: lines.map((line) => line.replace(/\/[^ ]*/, '<path>').replace(/\d+ ms/, 'ms')) };
    };
    const expected = await logged();
    expect(expected.lines).toHaveLength(2);
    await fc.assert(
      fc.asyncProperty(tracerFaults, async (faults) => {
        const hostile = hostileTracer(faults);
        expect(await logged(hostile.tracer)).toEqual(expected);
        await hostile.settled();
        expect(hostile.ends().filter((ends) => ends !== 1)).toEqual([]);
      }),
      { numRuns: 10 },
    );
  }, 120_000);
});
