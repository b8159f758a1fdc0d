/**
 * Choices instead of `string`: the document's enumerations. The SDK reads answers tolerantly
 * (an unknown status or currency is kept as a string, so a value the service adds does not crash
 * a merchant), which its tolerant schemas express as `string`. Code generators and Postman need
 * the listed values, so each enumerated field of an answer gets them — the schema's own strict
 * twin's where it has one, else the catalog's list for fields named status, country, currency,
 * payment_method, legal_doc_type, account_type or person_type — with a description of how the
 * SDK reads a value not listed.
 *
 * An answer's list is closed (`enum`) only where the guide closes it. Where the guide's "Country
 * reference" says "Not shown" for some country (document types of MX, GT and HN; methods and
 * account types of GT and HN) the service may send any value, so the document must not refuse
 * one: those lists are `x-extensible-enum` (known values, open), as Zalando's API guidelines
 * name it, and a validator or a generated client accepts any string there.
 */

import { isRecord } from '../core/guards.js';
import {
  COUNTRIES,
  COUNTRY_CODES,
  CURRENCY_CODES,
  PERSON_TYPES,
  TRANSACTION_STATUSES,
} from '../schemas/catalog.js';
import type { JsonSchema } from './json-schema.js';

/** Appended to the description of every enumerated field of an answer. */
export const OPEN_ENUM_NOTE =
  'Listed values are the strict form (strictResponses: true refuses others); in its default mode the SDK also reads a value not listed here, kept as a string, so a value the service adds does not break a client.';

/** Appended to the description of an answer's list the guide leaves open. */
export const EXTENSIBLE_ENUM_NOTE =
  'Known values (x-extensible-enum): the guide does not show them for every country, so the service may send another, and the SDK reads it as a string.';

/** The answer fields whose values the guide's "Country reference" leaves "Not shown" for some country. */
const OPEN_IN_GUIDE = new Set(['payment_method', 'top_payment_method', 'legal_doc_type', 'account_type']);

const countries = Object.values(COUNTRIES);
/** The values of every country's list (a country without one, such as GT's methods, adds none). */
const union = (lists: ReadonlyArray<readonly string[] | null>) => [
  ...new Set(lists.flatMap((list) => list ?? [])),
];
const METHODS = union(countries.flatMap((c) => [c.payinMethods, c.payoutMethods]));

/** The catalog's values of an answer field, by its name. */
const BY_FIELD: Readonly<Record<string, readonly string[]>> = {
  status: TRANSACTION_STATUSES,
  top_status: TRANSACTION_STATUSES,
  country: COUNTRY_CODES,
  currency: CURRENCY_CODES,
  top_currency: CURRENCY_CODES,
  payment_method: METHODS,
  top_payment_method: METHODS,
  legal_doc_type: union(countries.flatMap((c) => [c.payinDocumentTypes, c.payoutDocumentTypes])),
  account_type: union(countries.map((c) => c.accountTypes)),
  person_type: PERSON_TYPES,
};

/**
 * Gives the answer schema `tolerant` the enumerations of `strict` (the same schema converted from
 * its strict twin; same shape), else of the catalog by field name, each with OPEN_ENUM_NOTE.
 * Runs after the field descriptions are set, so the note follows the field's own text.
 */
export function openEnums(tolerant: JsonSchema, strict: JsonSchema | undefined, field = ''): void {
  // A card's issuing country is any country in the world: not the catalog's.
  if (field === 'top_card') return;
  const listed = Array.isArray(strict?.enum) ? (strict.enum as string[]) : BY_FIELD[field];
  if (listed && isPlainString(tolerant)) listValues(tolerant, listed, field);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = tolerant[key];
    const twins = strict?.[key];
    if (!Array.isArray(members)) continue;
    for (const [i, member] of members.entries())
      if (isSchema(member)) openEnums(member, childOf(Array.isArray(twins) ? twins[i] : undefined), field);
  }
  if (isSchema(tolerant.items)) openEnums(tolerant.items, childOf(strict?.items), field);
  const properties = tolerant.properties;
  if (isSchema(properties)) {
    const strictProperties = childOf(strict?.properties);
    for (const [name, child] of Object.entries(properties)) {
      if (isSchema(child)) openEnums(child, childOf(strictProperties?.[name]), name);
    }
  }
}

/** Sets the values of an answer field: closed where the guide closes them, else extensible. */
function listValues(tolerant: JsonSchema, listed: readonly string[], field: string): void {
  const values = listed.filter((value) => typeof value === 'string');
  if (OPEN_IN_GUIDE.has(field)) {
    tolerant['x-extensible-enum'] = values;
    tolerant.description = [tolerant.description, EXTENSIBLE_ENUM_NOTE].filter(Boolean).join(' ');
    return;
  }
  const nullable = Array.isArray(tolerant.type) && tolerant.type.includes('null');
  tolerant.enum = nullable ? [...values, null] : values;
  tolerant.description = [tolerant.description, OPEN_ENUM_NOTE].filter(Boolean).join(' ');
}

/**
 * Request fields are exact, so their choices are already `enum` or, for a country's own value,
 * `const`; a `const` of an enumerated field also gets `enum: [value]`, so every enumerated field
 * of the document has an `enum` to read.
 */
export function constEnums(schema: JsonSchema, field = ''): void {
  if (field in BY_FIELD && typeof schema.const === 'string' && !schema.enum) schema.enum = [schema.const];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const members = schema[key];
    if (Array.isArray(members)) for (const m of members) if (isSchema(m)) constEnums(m, field);
  }
  if (isSchema(schema.items)) constEnums(schema.items, field);
  if (isSchema(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties))
      if (isSchema(child)) constEnums(child, name);
  }
}

/** A string (or string-or-null) with no choices yet. */
function isPlainString(node: JsonSchema): boolean {
  const { type } = node;
  const string =
    type === 'string' || (Array.isArray(type) && type.every((t) => t === 'string' || t === 'null'));
  return string && node.enum === undefined && node.const === undefined && node.pattern === undefined;
}

function isSchema(value: unknown): value is JsonSchema {
  return isRecord(value);
}

function childOf(value: unknown): JsonSchema | undefined {
  return isSchema(value) ? value : undefined;
}
