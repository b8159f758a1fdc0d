/**
 * The compiled fast path (src/schemas/fast.ts) against zod itself, on generated inputs: valid
 * samples of every request and response schema, the same with up to four fields replaced, removed,
 * added or padded anywhere in the tree, and arbitrary values. For each input both must agree on
 * accept/reject, and an accepted value must be the same: keys in the same order, the same
 * prototypes, and a sub-object taken over from the input where zod takes it over, fresh where zod
 * builds one. fast-check, 3,000 runs per schema.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { OPERATIONS } from '../../src/api/operations.js';
import { EnvelopeSchema, issue, refinement } from '../../src/schemas/common.js';
import { fastParse } from '../../src/schemas/fast.js';
import type { ResponseSchema } from '../../src/schemas/kit.js';
import { WebhookEventSchema } from '../../src/schemas/webhook.js';
import { ErrorBodySchema, NotFoundBodySchema } from '../../src/schemas/wire.js';
import { REQUEST_SAMPLES, RESPONSE_SAMPLES } from './fast-parse-samples.js';

const RUNS = 3_000;

/** Where the two values first differ (undefined: the same), given the objects the input holds. */
function difference(fast: unknown, zod: unknown, inputs: Set<unknown>, path = '$'): string | undefined {
  if (Object.is(fast, zod)) return undefined;
  if (typeof fast !== 'object' || fast === null || typeof zod !== 'object' || zod === null) {
    return `${path}: ${String(fast)} vs ${String(zod)}`;
  }
  if (inputs.has(fast) !== inputs.has(zod)) return `${path}: one is the input's own object, the other a copy`;
  if (Object.getPrototypeOf(fast) !== Object.getPrototypeOf(zod)) return `${path}: prototypes differ`;
  const keys = Reflect.ownKeys(fast);
  const zodKeys = Reflect.ownKeys(zod);
  if (keys.join('\u0000') !== zodKeys.join('\u0000'))
    return `${path}: keys ${String(keys)} vs ${String(zodKeys)}`;
  for (const key of keys) {
    const at = difference(
      (fast as Record<PropertyKey, unknown>)[key],
      (zod as Record<PropertyKey, unknown>)[key],
      inputs,
      `${path}.${String(key)}`,
    );
    if (at) return at;
  }
  return undefined;
}

/** Every object and array reachable from the input. */
function objectsOf(value: unknown, seen = new Set<unknown>()): Set<unknown> {
  if (typeof value !== 'object' || value === null || seen.has(value)) return seen;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor && 'value' in descriptor) objectsOf(descriptor.value, seen);
  }
  return seen;
}

const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withUnicodeString: true,
});
/** Values that reach the rules behind the type checks: blanks, near-miss enums, numeric strings, edges. */
const plausible = fc
  .constantFrom(
    '',
    ' ',
    ' x ',
    'CO',
    'PE',
    'MX',
    'GT',
    'HN',
    'COP',
    'USD',
    'PSE',
    'SPEI',
    'CLABE',
    'NATURAL',
    'APPROVED',
    'APROVED',
    '57',
    '+57',
    'x@y.co',
    '150000.00',
    '1e3',
    '-5',
    'https://m.example/x',
    '.',
    '\uD800',
    0,
    -0,
    -1,
    1.5,
    0.1 + 0.2,
    2 ** 53,
    3001234567,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    true,
    null,
    undefined,
    [],
    {},
  )
  .map((v) => (typeof v === 'object' && v !== null ? structuredClone(v) : v)); // a fresh [] or {} per use
const value = fc.oneof(anything, plausible);
const extraKey = fc.constantFrom(
  'extra',
  'ipnUrl',
  '__proto__',
  'constructor',
  'toString',
  'bank',
  'metadata',
);

type Edit =
  | { op: 'set'; at: number; value: unknown }
  | { op: 'delete'; at: number }
  | { op: 'add'; at: number; key: string; value: unknown }
  | { op: 'pad'; at: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('add' as const), at: fc.nat(), key: extraKey, value }),
  fc.record({ op: fc.constant('pad' as const), at: fc.nat() }),
);

const isPlain = (value: unknown) =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/** Every [container, key] of the tree, the root's own keys first. */
function slots(root: object): Array<[Record<string, unknown>, string]> {
  const out: Array<[Record<string, unknown>, string]> = [];
  const walk = (node: Record<string, unknown>) => {
    for (const key of Object.keys(node)) {
      out.push([node, key]);
      const child = node[key];
      if (Array.isArray(child) || isPlain(child)) walk(child as Record<string, unknown>);
    }
  };
  walk(root as Record<string, unknown>);
  return out;
}

function apply(sample: unknown, edits: Edit[]): unknown {
  const root = { value: JSON.parse(JSON.stringify(sample)) as unknown };
  for (const change of edits) {
    const all = slots(root);
    if (all.length === 0) break;
    const [container, key] = all[change.at % all.length]!;
    const own = { enumerable: true, writable: true, configurable: true };
    if (change.op === 'delete') delete container[key];
    else if (change.op === 'set') Object.defineProperty(container, key, { ...own, value: change.value });
    else if (change.op === 'pad' && typeof container[key] === 'string')
      container[key] = ` ${container[key]}\t`;
    else if (change.op === 'add') {
      const target = container[key];
      if (typeof target === 'object' && target !== null) {
        Object.defineProperty(target, change.key, { ...own, value: change.value });
      }
    }
  }
  return root.value;
}

function inputs(samples: unknown[]): fc.Arbitrary<unknown> {
  const near = fc
    .tuple(fc.constantFrom(...samples), fc.array(edit, { maxLength: 4 }))
    .map(([sample, edits]) => apply(sample, edits));
  return fc.oneof({ arbitrary: near, weight: 6 }, { arbitrary: anything, weight: 1 });
}

function agrees(schema: z.ZodMiniType, input: unknown): boolean {
  let zod: ReturnType<typeof schema.safeParse>;
  try {
    zod = schema.safeParse(input);
  } catch {
    // zod throws (a transform given a value without a string form): the fast path must leave it to zod.
    expect(fastParse(schema, input)).toBeUndefined();
    return false;
  }
  const fast = fastParse(schema, input);
  expect(fast !== undefined, 'the fast path accepts exactly what zod accepts').toBe(zod.success);
  if (fast && zod.success) expect(difference(fast.data, zod.data, objectsOf(input))).toBeUndefined();
  return zod.success;
}

function check(
  schema: z.ZodMiniType,
  samples: unknown[],
  valid = true,
): { accepted: number; refused: number } {
  const seen = { accepted: 0, refused: 0 };
  if (valid)
    for (const sample of samples) expect(schema.safeParse(sample).success, JSON.stringify(sample)).toBe(true);
  fc.assert(
    fc.property(inputs(samples), (input) => {
      if (agrees(schema, input)) seen.accepted++;
      else seen.refused++;
    }),
    { numRuns: RUNS },
  );
  return seen;
}

describe('the fast path gives zod’s answer: request schemas', () => {
  for (const [id, operation] of Object.entries(OPERATIONS)) {
    const request = (operation as { request?: { schema: z.ZodMiniType } }).request;
    const samples = REQUEST_SAMPLES[id];
    if (!request || !samples) continue;
    it(`${id}: ${RUNS} valid, near-valid and arbitrary bodies`, () => {
      const seen = check(request.schema, samples);
      // Both branches ran, or the property proved little.
      expect(seen.accepted).toBeGreaterThan(RUNS / 20);
      expect(seen.refused).toBeGreaterThan(RUNS / 20);
    });
  }
});

describe('the fast path gives zod’s answer: response schemas, tolerant, strict and lenient', () => {
  const responses: Array<[string, ResponseSchema]> = [
    ['envelope', EnvelopeSchema as ResponseSchema],
    ...Object.entries(OPERATIONS).flatMap(([id, operation]) => {
      const response = (operation as { response?: ResponseSchema }).response;
      return response ? [[id, response] as [string, ResponseSchema]] : [];
    }),
  ];
  for (const [id, response] of responses) {
    const samples = RESPONSE_SAMPLES[id];
    if (!samples) continue;
    for (const mode of ['tolerant', 'strict', 'lenient'] as const) {
      it(`${id} (${mode}): ${RUNS} answers`, () => {
        const schema = mode === 'tolerant' ? response.tolerant : response[mode]();
        // The samples are tolerant answers (numbers for strings, numeric amounts): strict refuses some.
        const seen = check(schema, samples, mode !== 'strict');
        if (mode !== 'strict') expect(seen.accepted).toBeGreaterThan(RUNS / 20);
      });
    }
  }
  it(`webhook event, error bodies: ${RUNS} each`, () => {
    check(WebhookEventSchema, RESPONSE_SAMPLES.webhook!);
    check(ErrorBodySchema, RESPONSE_SAMPLES.error!);
    check(NotFoundBodySchema, [{ error: 'NOT_FOUND' }]);
  });
});

it('every sample names a schema of the operations table (a renamed operation is not silently skipped)', () => {
  for (const id of Object.keys(REQUEST_SAMPLES)) expect(OPERATIONS).toHaveProperty([id, 'request']);
  for (const id of Object.keys(RESPONSE_SAMPLES).filter(
    (k) => !['envelope', 'webhook', 'error'].includes(k),
  )) {
    expect(OPERATIONS).toHaveProperty([id, 'response']);
  }
});

/** An object whose prototype lends an enumerable key: zod's `for…in` sees it, Object.keys does not. */
function withInheritedKey(own: Record<string, unknown>): object {
  return Object.assign(Object.create({ a: ' lent ', extra: 'x' }), own);
}

const trimmed = () => z.string().check(z.trim(), z.minLength(1));
/** Every kind the compiler models, in the combinations the package's schemas do not (yet) use. */
const SYNTHETIC: Record<string, z.ZodMiniType> = {
  'catchall that transforms': z.catchall(z.object({ a: z.optional(trimmed()) }), trimmed()),
  'strip object': z.object({ a: trimmed(), b: z.optional(z.number()) }),
  'optional in, required out (a transform)': z.strictObject({
    a: z.pipe(
      z.transform((v: unknown) => (v === undefined ? 'none' : v)),
      z.string(),
    ),
    b: z.pipe(
      z.transform((v: unknown) => v),
      z.optional(z.string()),
    ),
    c: z.pipe(
      z.transform((v: unknown) => v),
      z.unknown(),
    ),
  }),
  'unknown, required': z.object({ a: z.unknown(), b: z.optional(z.unknown()) }),
  'a transform that reports an issue': z.pipe(
    z.string(),
    z.transform((v: string, ctx) => {
      if (v.trim() === '') ctx.issues.push({ code: 'custom', message: 'blank', input: v });
      return v.length;
    }),
  ),
  'default, prefault (left to zod)': z.object({
    a: z._default(z.string(), 'd'),
    b: z.prefault(z.number(), 1),
  }),
  'optional default': z.strictObject({
    a: z.optional(z._default(z.string(), 'd')),
    b: z.optional(z.string()),
  }),
  'record, tuple, intersection (left to zod)': z.union([
    z.record(z.string(), z.number()),
    z.tuple([z.string(), z.number()]),
    z.intersection(z.object({ a: z.string() }), z.looseObject({ b: z.number() })),
  ]),
  xor: z.xor([z.string(), z.string().check(z.minLength(2)), z.number()]),
  'exact optional': z.strictObject({ a: z.exactOptional(z.string()), b: z.nullish(z.string()) }),
  codec: z.codec(z.string(), z.number(), { decode: Number, encode: String }),
  'union in order': z.union([
    z.strictObject({ a: z.string() }),
    z.looseObject({ a: z.pipe(z.number(), z.transform(String)) }),
    z.object({}),
  ]),
  // Inside a union: an option the fast path wrongly refuses would let the next one answer.
  'discriminated, with fallback and a shared value': z.union([
    z.discriminatedUnion(
      'k',
      [
        z.object({ k: z.optional(z.literal(['a', 1, null])), v: z.string() }),
        z.object({ k: z.optional(z.literal('b')), v: z.number() }),
      ],
      { unionFallback: true },
    ),
    z.pipe(
      z.unknown(),
      z.transform(() => 'next option'),
    ),
  ]),
  'discriminated without fallback': z.discriminatedUnion('k', [
    z.strictObject({ k: z.literal('a'), v: z.string().check(z.trim()) }),
    z.strictObject({ k: z.enum(['b', 'c']), v: z.array(z.number()).check(z.maxLength(2)) }),
  ]),
  'formats and checks with `when`': z.strictObject({
    email: z.optional(z.email()),
    int: z.optional(z.int()),
    when: z.optional(
      z.string().check(z.refine((v) => v.length > 1, { when: (payload) => payload.value !== 'x' })),
    ),
    coerced: z.optional(z.coerce.number()),
  }),
  'declared __proto__': z.strictObject({ ['__proto__']: z.string(), a: z.optional(z.string()) }),
  'async refine (zod throws)': z.string().check(z.refine(async (v) => v.length > 1)),
  // A refine and an overwrite are stepped without a payload: a result that is not a boolean, and a
  // check after an overwrite, must read as zod reads them.
  'refine results that are not booleans, checks after an overwrite': z.strictObject({
    a: z.optional(
      z.string().check(
        z.trim(),
        z.overwrite((v) => v.replace(/x/g, '')),
        z.refine((v) => (v.length > 1 ? v : 0)),
        z.refine((v) => (v === 'yy' ? null : 'yes')),
        z.minLength(3),
        z.refine((v) => (v.length === 4 ? '' : {})),
      ),
    ),
    b: z.optional(z.number().check(z.refine((n) => (n > 0 ? n : Number.NaN)))),
  }),
  // A regex and a length are stepped without zod's check where that is exact: a global regex
  // (its lastIndex), lengths counted in code points, a length with a `when` of its own.
  'regex and lengths': z.strictObject({
    a: z.optional(z.string().check(z.regex(/x/g), z.minLength(2))),
    // zod/mini's types leave `when` out of a length's params; zod honours it (def.when ??= its default).
    b: z.optional(
      z
        .string()
        .check(z.minLength(3, { when: (payload: z.core.ParsePayload) => payload.value !== 'x' } as {})),
    ),
    v: z.optional(z.string().check(z.minLength(2), z.maxLength(3))),
  }),
  'a refinement of payinout reporting issues on paths': z
    .strictObject({
      a: z.optional(z.string()),
      b: z.optional(z.number()),
    })
    .check(
      refinement((value, found) => {
        if (value.a === undefined && value.b !== undefined) issue(found, ['a'], 'goes with b');
        if (typeof value.b === 'number' && value.b < 0) issue(found, undefined, 'negative');
      }),
      z.refine((value) => value.a !== 'stop'),
    ),
};

const SYNTHETIC_INPUTS = fc.oneof(
  anything,
  value,
  fc.dictionary(
    fc.constantFrom('a', 'b', 'k', 'v', 'email', 'int', 'when', 'coerced', '__proto__', 'extra'),
    value,
    {
      maxKeys: 4,
    },
  ),
  fc.dictionary(fc.constantFrom('a', 'b', 'k', 'extra'), value, { maxKeys: 3 }).map(withInheritedKey),
  fc.tuple(fc.constantFrom('a', 'b', 'c', 1, null, undefined), value).map(([k, v]) => ({ k, v })),
  fc.constantFrom('a', 'b', 'c', 'when').map((key) => ({ [key]: undefined })),
  fc.constantFrom('x', 'xy', { when: 'x' }, {}),
  fc
    .tuple(
      fc.constantFrom('a', 'b', 'v'),
      fc.constantFrom('x', 'xx', 'xax', 'x😀', '😀', '😀😀', '\uD83D', 'ab'),
    )
    .map(([key, text]) => ({ [key]: text })),
);

describe('the fast path gives zod’s answer: every kind it models, and those it leaves to zod', () => {
  for (const [name, schema] of Object.entries(SYNTHETIC)) {
    it(`${name}: ${RUNS} inputs`, () => {
      fc.assert(
        fc.property(SYNTHETIC_INPUTS, (input) => {
          agrees(schema, input);
        }),
        { numRuns: RUNS },
      );
    });
  }
});

describe('the fast path inside a refinement of its own schema', () => {
  it('a refinement that parses with the same schema: both parses give zod’s answer', () => {
    // The inner parse runs while the outer one's checks run: each needs a check state of its own.
    const seen: unknown[] = [];
    const outer: z.ZodMiniType<string> = z.string().check(
      z.minLength(2),
      z.refine((value) => {
        if (value.startsWith('re:')) seen.push(fastParse(outer, value.slice(3)));
        return !value.includes('!');
      }),
    );
    expect(fastParse(outer, 're:ok')).toEqual({ success: true, data: 're:ok' });
    expect(fastParse(outer, 're:bad!')).toBeUndefined();
    expect(fastParse(outer, 're:x')).toEqual({ success: true, data: 're:x' });
    expect(seen).toEqual([{ success: true, data: 'ok' }, undefined, undefined]);
    for (const input of ['re:ok', 're:bad!', 're:x', 'x', 'fine']) agrees(outer, input);
  });
});
