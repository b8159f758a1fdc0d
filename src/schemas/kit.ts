/**
 * Response schemas come in two modes built from one definition:
 * - tolerant (default): unknown keys kept, unknown enum values kept as strings, numeric
 *   strings accepted for amounts — a new status on the service must not crash production;
 * - strict (`strictResponses: true`): drift is a ResponseValidationError naming the field.
 * The exported schemas and every inferred type are the tolerant ones; the strict twin is
 * built lazily, on the first call of a strict client, so it costs nothing otherwise.
 */
import * as z from 'zod';

/** An enum that still accepts values the spec does not list yet (typed for autocompletion). */
export type OpenEnum<T extends string> = T | (string & {});

export interface SchemaKit {
  strict: boolean;
  /** An object that keeps unknown keys (tolerant) or rejects them (strict). */
  object: typeof z.looseObject;
  oneOf<const T extends readonly [string, ...string[]]>(values: T): z.ZodType<OpenEnum<T[number]>>;
  /** A number; tolerant mode also reads numeric strings such as "150000.00". */
  amount: z.ZodType<number>;
}

const numericString = z
  .string()
  .regex(/^-?\d+(\.\d+)?$/)
  .transform(Number);

const tolerantKit: SchemaKit = {
  strict: false,
  object: z.looseObject,
  oneOf: <const T extends readonly [string, ...string[]]>(_values: T) =>
    z.string() as unknown as z.ZodType<OpenEnum<T[number]>>,
  amount: z.union([z.number(), numericString]) as unknown as z.ZodType<number>,
};

const strictKit: SchemaKit = {
  strict: true,
  object: z.strictObject as unknown as typeof z.looseObject,
  oneOf: <const T extends readonly [string, ...string[]]>(values: T) =>
    z.enum(values as unknown as [string, ...string[]]) as unknown as z.ZodType<OpenEnum<T[number]>>,
  amount: z.number(),
};

/** A response schema: its tolerant form now, its strict form on first use. */
export interface ResponseSchema<T extends z.ZodType = z.ZodType> {
  tolerant: T;
  strict(): T;
}

export function responseSchema<T extends z.ZodType>(build: (kit: SchemaKit) => T): ResponseSchema<T> {
  let strict: T | undefined;
  return {
    tolerant: build(tolerantKit),
    strict: () => {
      strict ??= build(strictKit);
      return strict;
    },
  };
}
