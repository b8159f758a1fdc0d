import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, verifyWebhookAsync, WebhookVerificationError } from '../../src/index.js';
import { simulateNoNodeCrypto } from '../../src/webhooks/crypto.js';
import { jsonSignature, TOKEN } from './support.js';

/** Runs verifyWebhook and returns what it threw (undefined when it returned an event). */
function thrown(body: unknown, headers: unknown): unknown {
  try {
    verifyWebhook(body as string, headers as Record<string, string>, { token: TOKEN });
    return undefined;
  } catch (error) {
    return error;
  }
}

const headerValue = fc.oneof(
  fc.string(),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 64, maxLength: 64 }),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.integer(),
  fc.constant(undefined),
);
const headerName = fc.oneof(
  fc.constantFrom('x-trx-signature', 'X-TRX-SIGNATURE', 'content-type'),
  fc.string(),
);
const headers = fc.oneof(
  fc.dictionary(headerName, headerValue),
  fc.constantFrom(null, undefined, 42, 'x-trx-signature'),
  fc
    .dictionary(fc.constantFrom('x-trx-signature', 'content-type'), fc.string({ maxLength: 80 }))
    .map((record) => new Headers(record)),
);
const jsonish = fc.jsonValue().map((value) => JSON.stringify(value));
const formish = fc
  .dictionary(
    fc.oneof(fc.constantFrom('top_ticket', 'top_reference', 'top_user', '__proto__'), fc.string()),
    fc.string(),
  )
  .map((record) => new URLSearchParams(record).toString());
const body = fc.oneof(
  fc.uint8Array({ maxLength: 512 }),
  fc.string(),
  fc.string({ unit: 'binary' }),
  jsonish,
  formish,
  fc.anything(),
);

describe('verifyWebhook on arbitrary input (fast-check)', () => {
  it('throws nothing but WebhookVerificationError on arbitrary bytes and headers (10,000 runs)', () => {
    fc.assert(
      fc.property(body, headers, (rawBody, rawHeaders) => {
        const error = thrown(rawBody, rawHeaders);
        return error === undefined || error instanceof WebhookVerificationError;
      }),
      { numRuns: 10_000 },
    );
  });

  it('correctly signed arbitrary JSON objects either verify or fail with malformed_body (10,000 runs)', () => {
    const signedFields = fc.record(
      {
        top_ticket: fc.oneof(fc.string({ minLength: 1 }), fc.integer()),
        top_reference: fc.string({ minLength: 1 }),
        top_status: fc.oneof(fc.constantFrom('APPROVED', 'PENDING'), fc.string(), fc.integer()),
        top_amount: fc.oneof(fc.double(), fc.string(), fc.constant(null)),
        top_user: fc.oneof(fc.object({ maxDepth: 2, maxKeys: 4 }), fc.string(), fc.constant(null)),
      },
      { requiredKeys: ['top_ticket', 'top_reference'] },
    );
    fc.assert(
      fc.property(signedFields, fc.object({ maxDepth: 2, maxKeys: 6 }), (fields, extra) => {
        const event = { ...extra, ...fields };
        const rawBody = JSON.stringify(event);
        const signature = jsonSignature(TOKEN, String(fields.top_ticket), fields.top_reference);
        const error = thrown(rawBody, { 'x-trx-signature': signature });
        if (error === undefined) return true;
        expect(error).toBeInstanceOf(WebhookVerificationError);
        return (error as WebhookVerificationError).reason === 'malformed_body';
      }),
      { numRuns: 10_000 },
    );
  });

  it('verifyWebhookAsync on Web Crypto gives the same verdict as verifyWebhook, input by input (2,000 runs)', async () => {
    const verdict = (outcome: unknown) =>
      outcome instanceof WebhookVerificationError ? outcome.reason : JSON.stringify(outcome);
    const signedOrNot = fc.oneof(
      body.map((b) => ({ b, h: undefined as unknown })),
      jsonish.map((b) => ({ b, h: undefined as unknown })),
      fc
        .record({ top_ticket: fc.string({ minLength: 1 }), top_reference: fc.string({ minLength: 1 }) })
        .map((f) => ({
          b: JSON.stringify({ ...f, top_status: 'APPROVED' }),
          h: { 'x-trx-signature': jsonSignature(TOKEN, f.top_ticket, f.top_reference) } as unknown,
        })),
    );
    await fc.assert(
      fc.asyncProperty(signedOrNot, headers, async ({ b, h }, otherHeaders) => {
        const rawHeaders = h ?? otherHeaders;
        const sync =
          thrown(b, rawHeaders) ?? verifyWebhook(b as string, rawHeaders as never, { token: TOKEN });
        simulateNoNodeCrypto(true);
        try {
          const viaWeb = await verifyWebhookAsync(b as string, rawHeaders as never, { token: TOKEN }).catch(
            (e) => e,
          );
          expect(verdict(viaWeb)).toBe(verdict(sync));
        } finally {
          simulateNoNodeCrypto(false);
        }
      }),
      { numRuns: 2_000 },
    );
  });
});
