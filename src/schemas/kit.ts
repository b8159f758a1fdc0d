/**
 * Response schemas come in two modes built from one definition:
 * - tolerant (default): unknown keys kept, unknown enum values kept as strings, numeric
 *   strings accepted for amounts — a new status on the service must not crash production;
 * - strict (`strictResponses: true`): drift is a ResponseValidationError naming the field.
 * The exported schemas and every inferred type are the tolerant ones; the strict twin is
 * built lazily, on the first call of a strict client, so it costs nothing otherwise.
 *
 * Schemas use `zod/mini` (the same zod 4 schemas without the method-chaining layer): the
 * bundle budget (docs/performance.md) cannot afford classic zod's ~25 KB gzipped.
 */
import * as z from 'zod/mini';

/** Any schema of this package (a zod/mini schema: `.parse`, `.safeParse`, `z.infer`). */
export type Schema = z.ZodMiniType;

/** An enum that still accepts values the spec does not list yet (typed for autocompletion). */
export type OpenEnum<T extends string> = T | (string & {});

export interface SchemaKit {
  strict: boolean;
  /** An object that keeps unknown keys (tolerant) or rejects them (strict). */
  object: typeof z.looseObject;
  oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodMiniType<OpenEnum<T[number]>>;
  /** A number; tolerant mode also reads numeric strings such as "150000.00". */
  amount: z.ZodMiniType<number>;
}

const numericString = z.pipe(z.string().check(z.regex(/^-?\d+(\.\d+)?$/)), z.transform(Number));

const tolerantKit: SchemaKit = {
  strict: false,
  object: z.looseObject,
  oneOf: <const T extends readonly [string, ...string[]]>(_values: T) =>
    z.string() as unknown as z.ZodMiniType<OpenEnum<T[number]>>,
  amount: z.union([z.number(), numericString]) as unknown as z.ZodMiniType<number>,
};

const strictKit: SchemaKit = {
  strict: true,
  object: z.strictObject as unknown as typeof z.looseObject,
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values as unknown as [string, ...string[]]) as unknown as z.ZodMiniType<OpenEnum<T[number]>>,
  amount: z.number(),
};

/** A response schema: its tolerant form now, its strict form on first use. */
export interface ResponseSchema<T extends Schema = Schema> {
  /** Keeps unknown keys and unknown enum values (the default). */
  tolerant: T;
  /** Rejects drift; built on first call (`strictResponses: true`). */
  strict(): T;
}

export function responseSchema<T extends Schema>(build: (kit: SchemaKit) => T): ResponseSchema<T> {
  let strict: T | undefined;
  return {
    tolerant: build(tolerantKit),
    strict: () => {
      strict ??= build(strictKit);
      return strict;
    },
  };
}

/**
 * Messages for the issues a schema does not word itself. Passed per parse (`PARSE_OPTIONS`)
 * rather than through zod's global config, which would change the caller's own zod. Never
 * includes the input value: it may be a credential or PII.
 */
function describeIssue(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${issue.expected === 'int' ? 'a whole number' : `a ${issue.expected}`}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has keys the spec does not list: ${issue.keys.join(', ')}`;
    case 'too_small':
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_format':
      return `must be a valid ${issue.format}`;
    case 'invalid_union':
      return 'has an unexpected type';
    default:
      return 'is invalid';
  }
}

const PARSE_OPTIONS: z.core.ParseContext<z.core.$ZodIssue> = { error: describeIssue };

/**
 * `schema.safeParse(data)` with this package's issue messages. The error map is passed only on
 * the rare failing parse: zod builds a parse context for it, which doubles the cost of every
 * successful parse (measured 4.6 → 8.4 µs for a webhook event).
 */
export function safeParse<T extends Schema>(
  schema: T,
  data: unknown,
): z.core.util.SafeParseResult<z.output<T>> {
  const result = schema.safeParse(data) as z.core.util.SafeParseResult<z.output<T>>;
  return result.success
    ? result
    : (schema.safeParse(data, PARSE_OPTIONS) as z.core.util.SafeParseResult<z.output<T>>);
}
