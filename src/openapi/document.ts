/**
 * The OpenAPI 3.1 document of the service as the SDK understands it (`payinout/openapi.json`),
 * built from the operations table (src/api/) and the zod schemas: every endpoint, both security
 * headers, the envelope, the error bodies and the webhook. The simulator serves it at
 * GET {base_url}/openapi.json, `payinout openapi` prints it, the build writes openapi.json at the package root.
 */
import { OPERATION_LIST } from '../api/operations.js';
import type { DocumentedError, Operation } from '../api/types.js';
import { VERSION } from '../version.js';
import { SIGNATURE_HEADER } from '../webhooks/verify.js';
import { Components, ENVELOPE, ERROR_BODY, NOT_FOUND_BODY, WEBHOOK_EVENT } from './components.js';
import { type JsonSchema, ref } from './json-schema.js';
import { documentedErrors, textOf, whenOf } from './operation-texts.js';

/** Options of {@link buildOpenApiDocument}. */
export interface OpenApiOptions {
  /** The one server of the document; default a `{base_url}` variable (the simulator gives its own URL). */
  serverUrl?: string;
}

const JSON_TYPE = 'application/json';

const DESCRIPTION = [
  "The PayIn/PayOut payment service as the payinout SDK understands it, generated from the SDK's own",
  'operations table and zod schemas. Every answer is the common envelope (`code`, `status`, `message`,',
  '`data`, `error`); `data` holds the schema named on each operation. Response schemas keep the',
  "SDK's default tolerance: unknown keys pass, an amount may be a numeric string. Enumerated fields (status, country,",
  'currency, payment method, document, account and person types) list their values as `enum`; on answers the',
  'SDK also reads a value not listed, as each such field says, and a list the guide leaves open for some country',
  '(payment methods, document and account types) is `x-extensible-enum` instead. Where the guide shows no error body,',
  "the `default` response is the envelope's error form.",
].join(' ');

/** The whole document, as a plain JSON value. */
export function buildOpenApiDocument(options: OpenApiOptions = {}): Record<string, unknown> {
  const components = new Components();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of OPERATION_LIST) {
    paths[operation.template] ??= {};
    paths[operation.template]![operation.method.toLowerCase()] = pathOperation(operation, components);
  }
  return {
    openapi: '3.1.0',
    info: { title: 'payinout service API', version: VERSION, description: DESCRIPTION },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [server(options.serverUrl)],
    tags: TAGS,
    security: [{ basicAuth: [], tokenTop: [] }],
    paths,
    webhooks: { transactionStatus: webhook() },
    components: {
      schemas: components.all(),
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description:
            'HTTP Basic with the username and password issued by support (guide "Authentication", rule 1).',
        },
        tokenTop: {
          type: 'apiKey',
          in: 'header',
          name: 'Token-Top',
          description: 'The merchant token (guide "Authentication", rule 2).',
        },
      },
    },
  };
}

const TAGS = [
  { name: 'PayIn', description: 'Collections (client.payin)' },
  { name: 'PayOut', description: 'Disbursements (client.payout)' },
  { name: 'Merchant', description: 'Profile and balance (client.merchant)' },
  { name: 'Transactions', description: 'Lookup by ticket or reference (client.transactions)' },
  { name: 'Sandbox', description: 'Sandbox confirm, staging and UAT only (client.sandbox)' },
];

const TAG_OF: Readonly<Record<string, string>> = {
  payin: 'PayIn',
  payout: 'PayOut',
  merchant: 'Merchant',
  transactions: 'Transactions',
  sandbox: 'Sandbox',
};

function server(url: string | undefined): Record<string, unknown> {
  if (url) return { url, description: 'The base URL this document was generated for' };
  return {
    url: '{base_url}',
    description: "The environment's root, issued by the service's support (staging, UAT or production).",
    variables: { base_url: { default: 'http://127.0.0.1:4010', description: 'e.g. `payinout sandbox`' } },
  };
}

function pathOperation(operation: Operation, components: Components): Record<string, unknown> {
  const out: Record<string, unknown> = {
    operationId: operation.id,
    tags: [TAG_OF[operation.id.split('.')[0]!] ?? 'Other'],
    summary: textOf(operation.id).summary,
    description: describe(operation),
    security:
      operation.auth === 'token'
        ? [{ tokenTop: [] }, { basicAuth: [], tokenTop: [] }]
        : [{ basicAuth: [], tokenTop: [] }],
    'x-safe-to-resend': operation.safeToResend,
  };
  if (operation.deprecated) out.deprecated = true;
  if (operation.pathParams.length) out.parameters = operation.pathParams.map(pathParameter);
  if (operation.request) {
    const name = components.name(operation.request.schema, operation, 'Request');
    out.requestBody = { required: true, content: { [JSON_TYPE]: { schema: ref(name) } } };
  }
  if (operation.recovery) out['x-recovery'] = operation.recovery;
  out.responses = responses(operation, components);
  return out;
}

function describe(operation: Operation): string {
  const notes = [`Guide section "${textOf(operation.id).section}".`];
  if (operation.sandboxOnly) notes.push('Staging and UAT only; production answers 404 NOT_FOUND.');
  if (operation.data === 'single-or-list') {
    notes.push('`data` is described as an array but sampled as one object: either may come.');
  }
  if (operation.recovery) {
    notes.push(
      'Not safe to resend: when the answer is lost, look the reference up (GET /api/v1/transaction/{reference}) before creating again (`x-recovery`).',
    );
  }
  return notes.join(' ');
}

function pathParameter(name: string): Record<string, unknown> {
  return {
    name,
    in: 'path',
    required: true,
    description: 'The service ticket or the merchant reference.',
    schema: { type: 'string', minLength: 1 },
  };
}

function responses(operation: Operation, components: Components): Record<string, unknown> {
  const data = ref(components.name(operation.response, operation, 'Response'));
  const payload: JsonSchema =
    operation.data === 'single-or-list' ? { anyOf: [data, { type: 'array', items: data }] } : data;
  const success = {
    allOf: [ref(ENVELOPE), { type: 'object', required: ['data'], properties: { data: payload } }],
  };
  const out: Record<string, unknown> = {
    '200': {
      description: 'Success: the envelope with `data`.',
      content: { [JSON_TYPE]: { schema: success } },
    },
  };
  for (const [status, errors] of groupByStatus(documentedErrors(operation.id))) {
    const bare = errors.every((e) => e.bare);
    const list = errors.map((e) => `\`${e.error}\`: ${whenOf(operation.id, e.error)}`).join('; ');
    out[String(status)] = {
      description: `${list} (guide "Errors").`,
      content: { [JSON_TYPE]: { schema: ref(bare ? NOT_FOUND_BODY : ERROR_BODY) } },
    };
  }
  out.default = {
    description:
      'An error in the envelope form (code "00", status "ERROR", `error`, `message`). The guide does not show every error body; 401/403, 404, 422, 429 and 5xx are read this way.',
    content: { [JSON_TYPE]: { schema: ref(ERROR_BODY) } },
  };
  return out;
}

function groupByStatus(errors: readonly DocumentedError[]): Map<number, DocumentedError[]> {
  const groups = new Map<number, DocumentedError[]>();
  for (const error of errors) groups.set(error.status, [...(groups.get(error.status) ?? []), error]);
  return groups;
}

/** Guide "Events": POST to the transaction's ipn_url on every status change. */
function webhook(): Record<string, unknown> {
  return {
    post: {
      operationId: 'transactionStatusWebhook',
      summary: 'Status change of a transaction, POSTed to its ipn_url',
      description:
        'Sent on every status change and by sandbox confirm (guide "Events"). Answer 200 to confirm receipt (rule 3); otherwise it is retried after 5, 15, 30, 60 and 120 minutes (rule 4). Deduplicate by ticket and status (rule 5). Verify with `verifyWebhook` or `createWebhookHandler`.',
      security: [],
      parameters: [
        {
          name: SIGNATURE_HEADER,
          in: 'header',
          required: true,
          description:
            'SHA-256 hex over the merchant token, the ticket and the reference (guide "Events", rule 1); default scheme: JSON of { token, ticket, reference }.',
          schema: { type: 'string' },
        },
        {
          name: 'User-Agent',
          in: 'header',
          required: false,
          description: 'The service name and version 1.1 (guide "Events", rule 2).',
          schema: { type: 'string' },
        },
      ],
      requestBody: { required: true, content: { [JSON_TYPE]: { schema: ref(WEBHOOK_EVENT) } } },
      responses: {
        '200': { description: 'Receipt confirmed.' },
        default: { description: 'Not confirmed: the service retries on its schedule.' },
      },
    },
  };
}
