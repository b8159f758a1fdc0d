/**
 * Scrubbing as a property: a customer's name and document, echoed by the service in any case,
 * with or without accents, JSON-escaped, URL- or form-encoded, inside a longer word, and at any
 * position around the 2,000-character cut, never reach an error's views. 500 runs each (every
 * run builds a client call through a fetch stub).
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/index.js';
import { stubbedClient } from './responses.js';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 500);
/** Each run is a whole client call: generous, so a loaded CI machine does not time out. */
const TIMEOUT = 120_000;
const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzáéíóúñü'.split(''));
const word = fc.array(letters, { minLength: 4, maxLength: 9 }).map((chars) => chars.join(''));
const capitalised = word.map((w) => w[0]!.toUpperCase() + w.slice(1));
const name = fc.tuple(capitalised, capitalised).map(([a, b]) => `${a} ${b}`);
const document = fc.stringMatching(/^[1-9]\d{7,11}$/);

const stripAccents = (text: string) => text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
/** Non-ASCII and every other ASCII character as \uXXXX, the way some JSON encoders write them. */
const jsonEscape = (text: string) =>
  [...text]
    .map((c, i) =>
      c.charCodeAt(0) > 127 || i % 2 === 1 ? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}` : c,
    )
    .join('');
const ENCODINGS: Array<[string, (text: string) => string]> = [
  ['as is', (t) => t],
  ['upper', (t) => t.toUpperCase()],
  ['lower', (t) => t.toLowerCase()],
  ['no accents, upper', (t) => stripAccents(t).toUpperCase()],
  ['json escape', jsonEscape],
  ['url', (t) => encodeURIComponent(t)],
  ['form', (t) => encodeURIComponent(t).replace(/%20/g, '+')],
];
const encoding = fc.constantFrom(...ENCODINGS);
const glue = fc.stringMatching(/^[A-Za-z]{0,6}$/);

function views(error: unknown): string {
  const e = error as ApiError;
  return [
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, { depth: 10 }),
    // The body as a merchant would print it: String() of an object is '[object Object]', which a
    // generated name word ('Obje') would match without any PII in it.
    typeof e.body === 'string' ? e.body : JSON.stringify(e.body),
    String(e.serviceMessage),
  ].join('\n');
}

function clientAnswering(body: () => string, status: number) {
  return stubbedClient(
    async () => new Response(body(), { status, headers: { 'content-type': 'application/json' } }),
  );
}

const payin = (full_name: string, legal_doc: string) => ({
  reference: 'prop-1',
  amount: 50_000,
  currency: 'COP' as const,
  country: 'CO' as const,
  payment_method: 'BREB' as const,
  description: 'x',
  customer_data: {
    legal_doc,
    legal_doc_type: 'CC' as const,
    phone_code: '57',
    phone_number: '3001234567',
    email: 'c@example.com',
    full_name,
  },
});

describe('property: PII echoes never survive in an error', () => {
  it(
    'a name or document echoed in any encoding, inside longer words',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          name,
          document,
          encoding,
          glue,
          glue,
          async (full, doc, [, encode], before, after) => {
            const surname = full.split(' ')[1]!;
            const echoes = [encode(full), encode(surname), encode(doc)];
            const message = echoes.map((echo) => `${before}${echo}${after}`).join(' / ');
            const client = clientAnswering(
              () => JSON.stringify({ code: '00', status: 'ERROR', message }),
              422,
            );
            const error = await client.payin.create(payin(full, doc)).catch((e: unknown) => e);
            expect(error).toBeInstanceOf(ApiError);
            const text = views(error);
            for (const echo of echoes) expect(text).not.toContain(echo);
          },
        ),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );

  it(
    'a document at any position around the 2,000-character cut leaks no prefix',
    async () => {
      await fc.assert(
        fc.asyncProperty(document, fc.integer({ min: 1980, max: 2005 }), async (doc, at) => {
          const client = clientAnswering(() => `${'-'.repeat(at)}${doc}${'-'.repeat(30)}`, 400);
          const error = await client.payin.create(payin('Ana Pérez', doc)).catch((e: unknown) => e);
          expect(error).toBeInstanceOf(ApiError);
          expect(String((error as ApiError).body)).not.toContain(doc.slice(0, 4));
        }),
        { numRuns: RUNS },
      );
    },
    TIMEOUT,
  );
});
