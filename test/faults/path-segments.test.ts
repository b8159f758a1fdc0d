/**
 * Defect 3 of 0.3: a path segment built from a caller's value reaches the service as exactly that
 * value, or the value is refused before anything is sent. URL parsing removes dot segments (`.`,
 * `..`, `%2e`, `.%2E`…): a lookup of the reference `..` reached `/api/v1/` and a re-run paid again.
 * Through a real server that records the raw request target, on both senders (this folder runs in
 * the `node` and `fetch` projects); the simulator's router must read every sent path back to the
 * same value.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_LIST } from '../../src/api/operations.js';
import { createRouter } from '../../src/api/paths.js';
import { PaymentClient, RequestValidationError } from '../../src/index.js';
import { payinCO, payoutCO, transaction } from '../helpers/fixtures.js';
import { type LocalServer, startLocalServer } from '../helpers/local-server.js';
import { CREDENTIALS } from '../helpers/msw.js';

const LOOKUP_PREFIX = '/api/v1/transaction/';
const route = createRouter(OPERATION_LIST);
const seen: string[] = [];
let local: LocalServer;
let client: PaymentClient;

beforeAll(async () => {
  local = await startLocalServer((request, response) => {
    const target = request.url ?? '';
    seen.push(target);
    const last = target.slice(target.lastIndexOf('/') + 1);
    const reference = target.startsWith(LOOKUP_PREFIX) ? decodeURIComponent(last) : 'not-a-lookup';
    const data = { ...transaction, reference };
    response.writeHead(target.startsWith(LOOKUP_PREFIX) ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ code: '01', status: 'SUCCESS', message: '', data }));
  });
  client = new PaymentClient({ ...CREDENTIALS, baseUrl: local.baseUrl, maxRetries: 0 });
});
afterAll(() => local.close());

/** Lone UTF-16 surrogates: no URL can carry them. */
const hasLoneSurrogate = (value: string) =>
  /[\uD800-\uDFFF]/.test(value.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ''));

/** The oracle, written independently of the SDK's rule: what URL parsing cannot carry as itself. */
const unsendable = (id: string) => id === '' || id === '.' || id === '..' || hasLoneSurrogate(id);

const PIECES = [
  '.',
  '..',
  '%',
  '2e',
  '2E',
  '%2e',
  '%2E',
  '/',
  '\\',
  '?',
  '#',
  ' ',
  '\t',
  'ñ',
  '😀',
  '\uD800',
  '\uDC00',
  'a',
  '-',
  '~',
  '+',
  '&',
];
const shapes = fc.oneof(
  fc.constantFrom(
    '.',
    '..',
    ' . ',
    '..\t',
    '%2e',
    '%2E',
    '.%2e',
    '%2e.',
    '%2E%2e',
    '...',
    './x',
    '../x',
    'a/..',
    '/',
    '\\..',
    '%',
    '%25',
    'ñandú',
    '😀',
    '\uD800',
    'a\uDC00b',
  ),
  fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }),
);

describe('transactions.get: the looked-up id round-trips or is refused, nothing sent', () => {
  it('for dot, percent, slash and unicode shapes', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (value) => {
        const id = value.trim();
        const before = seen.length;
        const outcome = await client.transactions.get(value).catch((error: unknown) => error);
        if (unsendable(id)) {
          expect(outcome).toBeInstanceOf(RequestValidationError);
          expect((outcome as Error).message).toMatch(/nothing was sent/);
          expect((outcome as Error).message).not.toMatch(/validateRequests: false/);
          expect(seen.length).toBe(before);
          return;
        }
        expect(outcome).toMatchObject({ reference: id });
        expect(seen.length).toBe(before + 1);
        const target = seen[before]!;
        expect(target.startsWith(LOOKUP_PREFIX)).toBe(true);
        expect(decodeURIComponent(target.slice(LOOKUP_PREFIX.length))).toBe(id);
        // The simulator's router reads the path the SDK sent back to the same value.
        expect(route('GET', target)).toMatchObject({ found: 'operation', params: { ticket: id } });
      }),
      { numRuns: 300 },
    );
  });

  it.each(['.', '..', ' .. '])('%j names the problem: a dot segment URL parsing removes', async (value) => {
    const error = await client.transactions.get(value).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { path: 'ticket', message: expect.stringMatching(/dot segment/) },
    ]);
  });
});

describe('a create whose reference could not be looked up is refused before it is sent', () => {
  it.each(['.', '..', ' .. ', '\uD800'])(
    'reference %j: RequestValidationError naming reference, no request',
    async (reference) => {
      const before = seen.length;
      const payout = await client.payout.create({ ...payoutCO, reference }).catch((e: unknown) => e);
      const payin = await client.payin.create({ ...payinCO, reference }).catch((e: unknown) => e);
      for (const error of [payout, payin]) {
        expect(error).toBeInstanceOf(RequestValidationError);
        expect((error as RequestValidationError).issues).toContainEqual({
          path: 'reference',
          message: expect.stringMatching(/URL path/),
        });
      }
      expect(seen.length).toBe(before);
    },
  );
});

describe('createMany: a re-run never pays again for a dot-segment reference', () => {
  it.each([
    ['validated', true],
    ['with validateRequests: false (the lookup first refuses it)', false],
  ])(
    '%s: those items fail with RequestValidationError, nothing sent for them',
    async (_, validateRequests) => {
      const before = seen.length;
      const batch = ['..', ' . ', '%2e'].map((reference) => ({ ...payoutCO, reference }));
      const many = new PaymentClient({
        ...CREDENTIALS,
        baseUrl: local.baseUrl,
        maxRetries: 0,
        validateRequests,
      });
      const results = await many.payout.createMany(batch);
      expect(results.slice(0, 2).map((r) => [r.outcome, r.error?.name])).toEqual([
        ['failed', 'RequestValidationError'],
        ['failed', 'RequestValidationError'],
      ]);
      // '%2e' is an ordinary reference: it is looked up as itself (the server answers 404 for the create).
      const sent = seen.slice(before);
      expect(sent.filter((target) => !target.startsWith('/api/v1/payout'))).toEqual([
        `${LOOKUP_PREFIX}%252e`,
      ]);
    },
  );
});

describe("the simulator's router and URL parsing agree", () => {
  it.each([
    ['/api/v1/transaction/..', 'nothing'],
    ['/api/v1/transaction/%2E%2e', 'nothing'],
    ['/api/v1/transaction/.', 'nothing'],
    ['/api/v1/merchant/x/../balance', 'operation'],
    ['/api/v1/transaction/T-1/%2e', 'operation'],
  ])('%s resolves as URL parsing resolves it (%s)', (path, found) => {
    const match = route('GET', path);
    expect(match.found).toBe(found);
    if (path.endsWith('T-1/%2e')) expect(match).toMatchObject({ params: { ticket: 'T-1' } });
  });

  it('a path starting with // stays a path, never a host', () => {
    expect(route('GET', '//api/v1/merchant/balance/.').found).toBe('nothing');
  });
});
