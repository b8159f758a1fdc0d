/**
 * Response parsing on arbitrary answers: every call resolves with data or rejects with
 * ResponseValidationError or ApiError (for a create, also the documented unknown-outcome
 * ConnectionError after an unreadable 2xx). Never a TypeError or a SyntaxError. 10,000 runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, ResponseValidationError } from '../../src/index.js';
import { answeringClient, METHODS } from './responses.js';

const RUNS = 10_000;
const json = fc.jsonValue({ maxDepth: 3 });

const status = fc.oneof(
  fc.constantFrom(200, 201, 204, 301, 302, 400, 401, 403, 404, 408, 409, 422, 429, 500, 502, 503),
  fc.integer({ min: 200, max: 599 }),
);

/** A near-valid data value: the method's own with fields replaced by arbitrary JSON. */
const dataFor = (valid: unknown) =>
  fc.oneof(
    fc.constant(valid),
    json,
    fc.tuple(json, fc.string()).map(([value, key]) => {
      if (valid === null || typeof valid !== 'object' || Array.isArray(valid)) return value;
      const keys = Object.keys(valid);
      const target = keys[key.length % keys.length]!;
      return { ...(valid as object), [target]: value };
    }),
  );

const envelope = (valid: unknown) =>
  fc
    .record(
      {
        code: fc.oneof(fc.constantFrom('01', '00'), json),
        status: fc.oneof(fc.constantFrom('SUCCESS', 'ERROR'), json),
        message: fc.oneof(fc.string(), json),
        data: dataFor(valid),
        error: fc.oneof(
          fc.constantFrom(
            'NOT_FOUND',
            'ALREADY_FINAL',
            'TYPE_MISMATCH',
            'STATUS_NOT_SUPPORTED',
            'CONFIRM_FAILED',
          ),
          json,
        ),
      },
      { requiredKeys: [] },
    )
    .map((value) => JSON.stringify(value));

const bodyFor = (valid: unknown) =>
  fc.oneof(
    { arbitrary: envelope(valid), weight: 6 },
    { arbitrary: json.map((v) => JSON.stringify(v)), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary' }), weight: 1 },
    // Cut short: a truncated answer.
    {
      arbitrary: envelope(valid).chain((text) => fc.nat(text.length).map((n) => text.slice(0, n))),
      weight: 2,
    },
  );

const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'text/html', 'text/plain', ''),
    'retry-after': fc.constantFrom('0', '999', 'soon', ''),
  },
  { requiredKeys: [] },
);

describe('response parsing never throws anything but ResponseValidationError / ApiError', () => {
  it(`${RUNS} arbitrary answers across every method`, async () => {
    const { client, state } = answeringClient();
    const seen = { resolved: 0, rejected: 0 };
    const answer = fc
      .constantFrom(...METHODS)
      .chain((method) =>
        fc.record({ method: fc.constant(method), status, body: bodyFor(method.data), headers }),
      );
    await fc.assert(
      fc.asyncProperty(answer, async ({ method, status, body, headers }) => {
        // A create's 5xx is followed by a lookup after the backoff: Retry-After keeps that instant.
        const sent = method.create
          ? { ...headers, 'retry-after': headers['retry-after'] === '999' ? '999' : '0' }
          : headers;
        state.next = { status, body, headers: sent as Record<string, string> };
        state.lookups404 = method.create;
        let error: unknown;
        let value: unknown;
        try {
          value = await method.call(client);
        } catch (caught) {
          error = caught;
        }
        if (error === undefined) {
          seen.resolved++;
          return value !== null && typeof value === 'object';
        }
        seen.rejected++;
        if (error instanceof ResponseValidationError || error instanceof ApiError) return true;
        if (method.create && error instanceof ConnectionError && error.outcome === 'unknown') {
          return error.reference !== undefined;
        }
        throw error;
      }),
      { numRuns: RUNS },
    );
    expect(seen.resolved).toBeGreaterThan(100);
    expect(seen.rejected).toBeGreaterThan(100);
  }, 60_000);
});
