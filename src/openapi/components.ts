/**
 * The document's `components.schemas`: every schema an operation of the table (src/api/) or the
 * webhook names, converted once, under the name it is exported with minus `Schema`
 * (`PayInCreatedSchema` → `PayInCreated`), so a generated client's types read like the SDK's.
 */
import type * as z from 'zod/mini';
import type { Operation } from '../api/types.js';
import { EnvelopeSchema } from '../schemas/common.js';
import type { ResponseSchema } from '../schemas/kit.js';
import { WebhookEventSchema } from '../schemas/webhook.js';
import { ErrorBodySchema, NotFoundBodySchema } from '../schemas/wire.js';
import { describeSchema, descriptionsOf } from './descriptions.js';
import { constEnums, openEnums } from './enums.js';
import { type Definitions, type JsonSchema, toComponent } from './json-schema.js';
import * as schemaExports from './schema-exports.js';

type AnySchema = z.ZodMiniType | ResponseSchema;

/** Exported schemas by identity → component name. */
const NAMES = new Map<unknown, string>();
for (const [key, value] of Object.entries(schemaExports)) {
  if (key.endsWith('Schema') && value !== null && typeof value === 'object') {
    NAMES.set(value, key.slice(0, -'Schema'.length));
  }
}

/** The component names the document's other parts refer to. */
export const ENVELOPE = 'Envelope';
export const ERROR_BODY = 'ErrorBody';
export const NOT_FOUND_BODY = 'NotFoundBody';
export const WEBHOOK_EVENT = 'WebhookEvent';

/** Collects components as the paths name them; `name()` converts a schema on first use. */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};
  readonly #defs: Definitions = {};
  /** Answer components, with the JSON of their strict twin if any, for their enumerations (./enums.ts). */
  readonly #answers = new Map<string, JsonSchema | undefined>();

  constructor() {
    this.add(ENVELOPE, EnvelopeSchema);
    this.add(ERROR_BODY, ErrorBodySchema);
    this.add(NOT_FOUND_BODY, NotFoundBodySchema);
    this.add(WEBHOOK_EVENT, WebhookEventSchema, true);
  }

  /** The component name of an operation's request or response schema, converting it once. */
  name(schema: AnySchema, operation: Operation, role: 'Request' | 'Response'): string {
    const name = NAMES.get(schema) ?? `${pascal(operation.id)}${role}`;
    if (!(name in this.schemas)) this.add(name, schema, role === 'Response');
    return name;
  }

  /**
   * Every component, the lifted `$defs` included, sorted by name for a stable document. Each
   * carries the doc comments of its schema's fields as descriptions (./descriptions.ts).
   */
  all(): Record<string, JsonSchema> {
    const merged = { ...this.#defs, ...this.schemas };
    for (const [name, schema] of Object.entries(merged)) {
      describeSchema(schema, descriptionsOf(name));
      if (this.#answers.has(name)) openEnums(schema, this.#answers.get(name));
      else constEnums(schema);
    }
    return Object.fromEntries(
      Object.keys(merged)
        .sort()
        .map((key) => [key, merged[key]!]),
    );
  }

  /** `answer`: the service sends it (a response, the webhook), so its enumerations are open. */
  add(name: string, schema: AnySchema, answer = 'tolerant' in schema): void {
    const zod = 'tolerant' in schema ? schema.tolerant : schema;
    this.schemas[name] = toComponent(zod, this.#defs);
    // The strict twin's own `$defs` are not kept: only its enumerations are read.
    if (answer) this.#answers.set(name, 'tolerant' in schema ? toComponent(schema.strict(), {}) : undefined);
  }
}

function pascal(id: string): string {
  return id.replace(/(^|[.\-_])(\w)/g, (_, _sep: string, ch: string) => ch.toUpperCase());
}
