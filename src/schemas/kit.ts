/**
 * Response schemas come in two modes built from one definition:
 * - tolerant (default): unknown keys kept, unknown enum values kept as strings, numeric
 *   strings accepted for amounts — a new status on the service must not crash production;
 * - strict (`strictResponses: true`): drift is a ResponseValidationError naming the field.
 * The exported schemas and every inferred type are the tolerant ones; the strict twin is
 * built lazily, on the first call of a strict client, so it costs nothing otherwise.
 *
 * Schemas use `zod/mini` (the same zod 4 schemas without the method-chaining layer): the
 * bundle budget (node_modules/payinout/docs/performance.md or https://github.com/payinout/payinout/blob/main/docs/performance.md) cannot afford classic zod's ~25 KB gzipped.
 */
import * as z from 'zod/mini';
import type { fastParse } from './fast.js';
import { unknownKeyMessage } from './suggest.js';

/** Any schema of this package (a zod/mini schema: `.parse`, `.safeParse`, `z.infer`). */
export type Schema = z.ZodMiniType;

/** An enum that still accepts values the spec does not list yet (typed for autocompletion). */
export type OpenEnum<T extends string> = T | (string & {});

export interface SchemaKit {
  strict: boolean;
  /** The form of a nested response schema that matches this kit's mode. */
  nested<T extends Schema>(schema: ResponseSchema<T>): T;
  /**
   * An object that keeps unknown keys at run time (tolerant) or rejects them (strict). Typed without
   * an index signature, so reading a misspelled field (`created.paymentUrl`) is a compile error.
   */
  object: typeof z.object;
  /**
   * An object that keeps unknown keys in every mode, strict too: for an answer the spec says
   * carries fields it does not name (node_modules/payinout/docs/spec-gaps.md or https://github.com/payinout/payinout/blob/main/docs/spec-gaps.md). A missing field is still tolerated by
   * default and named in strict mode, as with {@link SchemaKit.object}. Typed with an index
   * signature, so those keys are readable (`info['other_key']`).
   */
  openObject: typeof z.looseObject;
  /** A string typed as the listed values, in both modes (for fields whose samples contradict the list). */
  typed<T extends string>(): z.ZodMiniType<T>;
  /**
   * One of the listed values. Typed as the closed union so a typo (`'APPROVD'`) fails to compile;
   * at run time the tolerant kit still passes a value the spec does not list yet (strict refuses it).
   */
  oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodMiniType<T[number]>;
  /** A number; tolerant mode also reads numeric strings such as "150000.00". */
  amount: z.ZodMiniType<number>;
}

const numericString = z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?$/)), z.transform(Number));

const openOneOf = <const T extends readonly [string, ...string[]]>(_values: T) =>
  z.string() as unknown as z.ZodMiniType<T[number]>;
const stringTyped = <T extends string>() => z.string() as unknown as z.ZodMiniType<T>;
const tolerantAmount = z.union([z.number(), numericString]) as unknown as z.ZodMiniType<number>;

const looseObject = z.looseObject as unknown as typeof z.object;

const tolerantKit: SchemaKit = {
  strict: false,
  nested: (schema) => schema.tolerant,
  object: looseObject,
  openObject: z.looseObject,
  typed: stringTyped,
  oneOf: openOneOf,
  amount: tolerantAmount,
};

/**
 * The tolerant kit with every field optional and nullable: used only to read an answer whose
 * fields are missing or null, after the tolerant parse failed on exactly that (see readResponse).
 */
const lenientObject = ((shape: Record<string, z.ZodMiniType>) =>
  z.looseObject(
    Object.fromEntries(Object.entries(shape).map(([key, field]) => [key, z.optional(z.nullable(field))])),
  )) as unknown as typeof z.object;

const lenientKit: SchemaKit = {
  strict: false,
  nested: (schema) => schema.lenient(),
  object: lenientObject,
  openObject: lenientObject as unknown as typeof z.looseObject,
  typed: stringTyped,
  oneOf: openOneOf,
  amount: tolerantAmount,
};

const strictKit: SchemaKit = {
  strict: true,
  nested: (schema) => schema.strict(),
  object: z.strictObject as unknown as typeof z.object,
  openObject: z.looseObject,
  typed: stringTyped,
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values as unknown as [string, ...string[]]) as unknown as z.ZodMiniType<T[number]>,
  amount: z.number(),
};

/** A response schema: its tolerant form now, its strict form on first use. */
export interface ResponseSchema<T extends Schema = Schema> {
  /** Keeps unknown keys and unknown enum values (the default). */
  tolerant: T;
  /** Rejects drift; built on first call (`strictResponses: true`). */
  strict(): T;
  /** Every field optional and nullable; built on the first answer with a missing or null field. */
  lenient(): T;
}

export function responseSchema<T extends Schema>(build: (kit: SchemaKit) => T): ResponseSchema<T> {
  let strict: T | undefined;
  let lenient: T | undefined;
  return {
    tolerant: build(tolerantKit),
    strict: () => {
      strict ??= build(strictKit);
      return strict;
    },
    lenient: () => {
      lenient ??= build(lenientKit);
      return lenient;
    },
  };
}

/**
 * Messages for the issues a schema does not word itself. Passed per parse (`PARSE_OPTIONS`)
 * rather than through zod's global config, which would change the caller's own zod. Never
 * includes the input value: it may be a credential or PII.
 */
function describeIssue(issue: z.core.$ZodRawIssue): string {
  // Kept on the final issue (zod copies the raw issue's keys after this map runs).
  const extra = issue as unknown as { absent?: boolean; keyMessages?: string[] };
  if (issue.input === undefined || issue.input === null) extra.absent = true;
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${issue.expected === 'int' ? 'a whole number' : article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys': {
      const known = Object.keys(
        (issue.inst as { _zod?: { def?: { shape?: object } } })?._zod?.def?.shape ?? {},
      );
      extra.keyMessages = issue.keys.map((key) => unknownKeyMessage(key, known));
      return `has keys the spec does not list: ${issue.keys.join(', ')}`;
    }
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union': {
      const options = (issue as { options?: unknown[] }).options;
      if (!options) return 'has an unexpected type';
      return issue.input === undefined ? 'is required' : `must be one of ${options.join(', ')}`;
    }
    default:
      return 'is invalid';
  }
}

/** 'an object', 'a string': the expected type with its article. */
const article = (noun: string) => `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;

const PARSE_OPTIONS: z.core.ParseContext<z.core.$ZodIssue> = { error: describeIssue };

/**
 * The compiled fast path (fast.ts), once the Node entry installs it (src/node/client.ts): its
 * ~0.9 KB gzipped would grow the bundle of the main entry, which Workers and browsers load, while
 * a Node process pays nothing per byte. It gives zod's exact output, so only the speed differs.
 */
let fastPath: typeof fastParse | undefined;

/** Makes every `safeParse` of this module try the fast path first (see {@link fastPath}). */
export function installFastPath(parse: typeof fastParse): void {
  fastPath = parse;
}

/**
 * `schema.safeParse(data)` with this package's issue messages. Where the fast path is installed,
 * an input the schema accepts is read by it (zod's exact output, two to four times faster) and
 * zod parses the rest. Otherwise zod parses first without the error map, which is passed only on
 * the rare failing parse: zod builds a parse context for it, which doubles the cost of every
 * successful parse (measured 4.6 → 8.4 µs for a webhook event).
 */
export function safeParse<T extends Schema>(
  schema: T,
  data: unknown,
): z.core.util.SafeParseResult<z.output<T>> {
  const first = fastPath ? fastPath(schema, data) : schema.safeParse(data);
  if (first?.success) return first as z.core.util.SafeParseResult<z.output<T>>;
  const failed = schema.safeParse(data, PARSE_OPTIONS) as z.core.util.SafeParseResult<z.output<T>>;
  if (!failed.success) expandUnknownKeys(failed.error.issues);
  return failed;
}

/** One issue per unknown key, on the key's own path: "ipnUrl: unknown field; did you mean ipn_url?". */
function expandUnknownKeys(issues: z.core.$ZodIssue[]): void {
  for (let i = issues.length - 1; i >= 0; i--) {
    const issue = issues[i]!;
    const messages = (issue as { keyMessages?: string[] }).keyMessages;
    if (issue.code !== 'unrecognized_keys' || !messages) continue;
    const perKey = issue.keys.map((key, k) => ({
      ...issue,
      path: [...issue.path, key],
      message: messages[k]!,
    }));
    issues.splice(i, 1, ...perKey);
  }
}

/** A response read by {@link readResponse}. */
export type ResponseRead<T> =
  | { success: true; data: T; warnings: string[] }
  | { success: false; error: z.core.$ZodError };

/**
 * Reads a response `data` in the client's mode. Strict: any drift fails. Tolerant (default): unknown
 * keys and values pass; a field that is missing or null where the schema wants a value does not fail
 * the call either: the answer is read with every field optional and nullable, null fields are left
 * out, and each such field comes back in `warnings` (the client logs them) — a service that stops
 * sending a field, or echoes `ipn_url: null`, must not break a payment that went through.
 */
export function readResponse<T extends Schema>(
  schema: ResponseSchema<T>,
  data: unknown,
  strict: boolean,
): ResponseRead<z.output<T>> {
  const first = safeParse(strict ? schema.strict() : schema.tolerant, data);
  if (first.success) return { success: true, data: first.data, warnings: [] };
  const absent = first.error.issues.every((i) => (i as { absent?: boolean }).absent && i.path.length > 0);
  if (strict || !absent) return first;
  const lenient = schema.lenient().safeParse(data);
  if (!lenient.success) return first;
  const warnings = first.error.issues.map((i) => i.path.join('.'));
  for (const issue of first.error.issues) dropNull(lenient.data, issue.path);
  return { success: true, data: lenient.data as z.output<T>, warnings };
}

/** Removes a null left at `path` so the result matches its type (the field is simply absent). */
function dropNull(value: unknown, path: readonly PropertyKey[]): void {
  let parent = value as Record<PropertyKey, unknown> | null | undefined;
  for (const key of path.slice(0, -1)) parent = parent?.[key] as typeof parent;
  const last = path[path.length - 1]!;
  if (parent && typeof parent === 'object' && parent[last] === null) delete parent[last];
}
