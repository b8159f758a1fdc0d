/**
 * Safe calls (reads and the idempotent sandbox confirm) under every fault: the typed error,
 * the number of attempts and the requests the server saw.
 */
import { describe, it } from 'vitest';
import {
  ConnectionError,
  NotFoundError,
  RateLimitError,
  ResponseValidationError,
  ServerError,
  TimeoutError,
} from '../../src/index.js';
import { SAFE_METHODS, SEEDED, settle } from './methods.js';
import { type Fault, startFaultServer } from './server.js';

interface Case {
  name: string;
  faults: Fault[];
  maxRetries: number;
  /** Requests the server sees (all the same request). */
  attempts: number;
  outcome: 'ok' | (abstract new (...args: never[]) => Error);
  /** The outcome must not be an instance of this (e.g. a reset is not a timeout). */
  not?: abstract new (
    ...args: never[]
  ) => Error;
  message?: RegExp;
}

const retryNow = { 'retry-after': '0' };
const drop: Fault = { kind: 'drop' };

const CASES: Case[] = [
  {
    name: 'maxRetries 0 means exactly one attempt, even for a stale-socket reset',
    faults: [drop],
    maxRetries: 0,
    attempts: 1,
    outcome: ConnectionError,
    not: TimeoutError,
  },
  {
    name: 'stale socket (drop before any byte) with maxRetries 1: retried at once, then fine',
    faults: [drop],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    name: 'dropped every time, maxRetries 2: three attempts',
    faults: [drop, drop, drop, drop],
    maxRetries: 2,
    attempts: 3,
    outcome: ConnectionError,
  },
  {
    name: 'drop after commit, then fine',
    faults: [{ kind: 'drop-after-commit' }],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    name: '503 then fine',
    faults: [{ kind: 'status', status: 503, headers: retryNow }],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    name: '503 twice, maxRetries 1: ServerError',
    faults: [
      { kind: 'status', status: 503, headers: retryNow },
      { kind: 'status', status: 503, headers: retryNow },
    ],
    maxRetries: 1,
    attempts: 2,
    outcome: ServerError,
  },
  {
    name: '429 + Retry-After: 0 then fine',
    faults: [{ kind: 'status', status: 429, headers: retryNow }],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    name: '429 with maxRetries 0: RateLimitError',
    faults: [{ kind: 'status', status: 429, headers: retryNow }],
    maxRetries: 0,
    attempts: 1,
    outcome: RateLimitError,
  },
  {
    name: '429 with Retry-After beyond 60 s is not waited for',
    faults: [{ kind: 'status', status: 429, headers: { 'retry-after': '3600' } }],
    maxRetries: 2,
    attempts: 1,
    outcome: RateLimitError,
  },
  { name: 'HTML 502 page then fine', faults: [{ kind: 'html' }], maxRetries: 1, attempts: 2, outcome: 'ok' },
  {
    name: 'HTML 502 page, maxRetries 0: ServerError',
    faults: [{ kind: 'html' }],
    maxRetries: 0,
    attempts: 1,
    outcome: ServerError,
  },
  {
    name: 'truncated JSON: ResponseValidationError, not retried',
    faults: [{ kind: 'truncated' }],
    maxRetries: 2,
    attempts: 1,
    outcome: ResponseValidationError,
    message: /not valid JSON/,
  },
  {
    name: 'slow headers, maxRetries 0: TimeoutError',
    faults: [{ kind: 'slow-headers', ms: 3000 }],
    maxRetries: 0,
    attempts: 1,
    outcome: TimeoutError,
    message: /did not answer within \d+ ms/,
  },
  {
    name: 'slow headers then fine',
    faults: [{ kind: 'slow-headers', ms: 3000 }],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    name: 'slow body: the timeout covers the body',
    faults: [{ kind: 'slow-body', ms: 3000 }],
    maxRetries: 0,
    attempts: 1,
    outcome: TimeoutError,
    message: /sent HTTP 200 but not the whole body within \d+ ms/,
  },
  {
    name: 'reset mid-body, maxRetries 0: ConnectionError (not a stale socket)',
    faults: [{ kind: 'reset-mid-body' }],
    maxRetries: 0,
    attempts: 1,
    outcome: ConnectionError,
    not: TimeoutError,
  },
  {
    name: 'reset mid-body then fine',
    faults: [{ kind: 'reset-mid-body' }],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    // Only Retry-After and retry-after-ms pace a retry (docs/reliability.md), on either sender:
    // a client that honoured RateLimit-Reset would wait an hour here.
    name: '429 with RateLimit-Reset of an hour and no Retry-After: the backoff, then fine',
    faults: [{ kind: 'status', status: 429, headers: { 'ratelimit-reset': '3600' } }],
    maxRetries: 1,
    attempts: 2,
    outcome: 'ok',
  },
  {
    name: 'wrong content type: read as JSON anyway',
    faults: [{ kind: 'wrong-content-type' }],
    maxRetries: 0,
    attempts: 1,
    outcome: 'ok',
  },
];

for (const method of SAFE_METHODS) {
  describe.concurrent(`${method.name} under faults`, () => {
    for (const c of CASES) {
      it(c.name, async ({ expect, onTestFinished }) => {
        const server = await startFaultServer({ seed: [{ reference: SEEDED }] });
        onTestFinished(() => server.close());
        server.queue(...c.faults.map((fault) => ({ fault })));
        const client = server.client({ maxRetries: c.maxRetries, timeoutMs: 1_500 });
        const { value, error } = await settle(method.call(client));

        expect(server.order()).toEqual(Array(c.attempts).fill(method.request));
        if (c.outcome === 'ok') {
          expect(error).toBeUndefined();
          expect((value as { lastResponse: { attempts: number } }).lastResponse.attempts).toBe(c.attempts);
          return;
        }
        expect(error).toBeInstanceOf(c.outcome);
        if (c.not) expect(error).not.toBeInstanceOf(c.not);
        const failure = error as { attempts: number; method: string; path: string; message: string };
        expect(failure.attempts).toBe(c.attempts);
        expect(`${failure.method} ${failure.path}`).toBe(method.request);
        if (c.message) expect(failure.message).toMatch(c.message);
      });
    }
  });
}

describe('lookup of an unknown reference', () => {
  it('is a NotFoundError, not retried', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const { error } = await settle(server.client({ maxRetries: 2 }).transactions.get('nope-1'));
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).path).toBe('/api/v1/transaction/nope-1');
    expect(server.order()).toEqual(['GET /api/v1/transaction/nope-1']);
  });
});
