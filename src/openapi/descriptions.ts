/**
 * Field descriptions for the JSON Schema of a component. A description is written once, as the
 * doc comment of a schema field (src/schemas/); the build reads those comments with the
 * TypeScript checker (scripts/openapi-descriptions.mjs) into descriptions.generated.json, so the
 * text reaches the OpenAPI document without a `.meta()` copy in the runtime bundle. Imported only
 * by the OpenAPI generator (payinout/testing and the CLI), never by the main entry.
 */

import { isRecord } from '../core/guards.js';
import GENERATED from './descriptions.generated.json' with { type: 'json' };
import type { JsonSchema } from './json-schema.js';

/** Field path ('' = the schema itself; '.' nests, '[]' is an array item) → description. */
export type FieldDescriptions = Readonly<Record<string, string>>;

const DESCRIPTIONS: Readonly<Record<string, FieldDescriptions>> = GENERATED;

/** The descriptions of one component, by its name (the schema's export name minus `Schema`). */
export function descriptionsOf(component: string): FieldDescriptions | undefined {
  return Object.hasOwn(DESCRIPTIONS, component) ? DESCRIPTIONS[component] : undefined;
}

/**
 * Gives each node of `schema` the description of its field path, where the node has none (a
 * `.meta({ description })` wins). The members of a union describe the same path.
 */
export function describeSchema(schema: JsonSchema, fields: FieldDescriptions | undefined): JsonSchema {
  if (fields) visit(schema, '', fields);
  return schema;
}

/** `own`: the node is the field itself, not a member of its union (which would repeat the text). */
function visit(node: JsonSchema, path: string, fields: FieldDescriptions, own = true): void {
  const text = fields[path];
  if (own && text !== undefined && node.description === undefined) node.description = text;
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = node[key];
    if (Array.isArray(members)) for (const member of members) visitChild(member, path, fields, false);
  }
  visitChild(node.items, join(path, '[]'), fields);
  const properties = node.properties;
  if (properties && typeof properties === 'object') {
    for (const [name, child] of Object.entries(properties)) visitChild(child, join(path, name), fields);
  }
}

function visitChild(child: unknown, path: string, fields: FieldDescriptions, own = true): void {
  if (isRecord(child)) visit(child as JsonSchema, path, fields, own);
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}
