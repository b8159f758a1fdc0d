/** ajv (JSON Schema 2020-12) over the generated document's response and webhook schemas. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import { OPERATION_LIST, type OperationId } from '../../src/api/index.js';
import { buildOpenApiDocument } from '../../src/openapi/document.js';

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, walked by key
export type Json = Record<string, any>;
export const document = buildOpenApiDocument() as Json;

const ajv = new Ajv2020({ strict: false, allErrors: true });
const compiled = new Map<unknown, ReturnType<typeof ajv.compile>>();

/** The errors of `body` against `schema`, with the document's components beside it so `$ref`s resolve. */
function errorsOf(schema: Json, body: unknown): string[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, components: document.components });
    compiled.set(schema, validate);
  }
  return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** What is wrong with an answer of `op` with HTTP `status`, by the document; [] when it validates. */
export function validateAnswer(op: OperationId, status: number, body: unknown): string[] {
  const operation = OPERATION_LIST.find((o) => o.id === op)!;
  const responses = document.paths[operation.template][operation.method.toLowerCase()].responses;
  const response = responses[String(status)] ?? responses.default;
  return errorsOf(response.content['application/json'].schema, body);
}

/** What is wrong with a webhook body, by the document's webhook; [] when it validates. */
export function validateWebhook(body: unknown): string[] {
  return errorsOf(
    document.webhooks.transactionStatus.post.requestBody.content['application/json'].schema,
    body,
  );
}
