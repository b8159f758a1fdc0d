/**
 * zod schemas → JSON Schema 2020-12 (the dialect of OpenAPI 3.1) with zod 4's own
 * `z.toJSONSchema`, which reads zod/mini schemas and carries each field's description/meta from
 * zod's global registry. The wire form is the schemas' *input*: what the service sends and what
 * the SDK parses (a tolerant amount is a number or a numeric string; unknown keys are allowed).
 */
import * as z from 'zod/mini';

/** A JSON Schema object as this module emits it. */
export type JsonSchema = Record<string, unknown>;

/** Named sub-schemas (`$defs`) lifted out of a component, by name. */
export type Definitions = Record<string, JsonSchema>;

const COMPONENTS = '#/components/schemas/';

/**
 * One schema as a component. A schema registered with an `id` comes out in `$defs` with a
 * `#/$defs/…` reference, which an OpenAPI document would resolve from its root: those are moved
 * into `defs` and their references rewritten to `#/components/schemas/…`.
 */
export function toComponent(schema: z.ZodMiniType, defs: Definitions): JsonSchema {
  const json = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    // A transform (e.g. reading a PSE bank's aliases) accepts any input: `{}` says so.
    unrepresentable: 'any',
  }) as JsonSchema;
  delete json.$schema;
  const lifted = json.$defs as Definitions | undefined;
  delete json.$defs;
  for (const [name, def] of Object.entries(lifted ?? {})) defs[name] = rewriteRefs(def) as JsonSchema;
  return rewriteRefs(json) as JsonSchema;
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
        ? COMPONENTS + inner.slice('#/$defs/'.length)
        : rewriteRefs(inner);
  }
  return out;
}

/** A `$ref` to a component. */
export function ref(name: string): JsonSchema {
  return { $ref: COMPONENTS + name };
}
