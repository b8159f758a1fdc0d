/**
 * The request core every front end uses (node:http server, msw handlers, tests). Routes come from
 * the operations table (src/api/): its method and path template pick the endpoint, its auth rule
 * picks the credentials, and one function per operation answers. Synchronous and
 * allocation-light, since `npm run bench` measures it over HTTP.
 */
import { OPERATION_LIST, OPERATIONS, type OperationId } from '../api/operations.js';
import { createRouter, type RouteMatch } from '../api/paths.js';
import type { Operation } from '../api/types.js';
import { buildOpenApiDocument } from '../openapi/document.js';
import { checkoutPage, completePayment } from './checkout.js';
import { confirm } from './confirm.js';
import { noteExchange } from './exchange.js';
import { answerWithFaults } from './faults/api.js';
import { refuseDepth } from './guard.js';
import { getHeader, isRecord, NOT_JSON, nonEmpty, readJson } from './http.js';
import { balance, profile, pseBanks, search } from './lookup.js';
import { createPayIn } from './payin.js';
import { createPayOut } from './payout.js';
import { fail, invalid } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxRequest, SandboxResponse } from './types.js';

/** What an endpoint gets: the state, the authenticated merchant, the JSON body, the path parameters. */
interface Call {
  state: SandboxState;
  merchant: SandboxMerchant;
  body: unknown;
  params: Readonly<Record<string, string>>;
}

/** One answer per operation of the table; a missing one is a compile error. */
const ENDPOINTS: { readonly [Id in OperationId]: (call: Call) => SandboxResponse } = {
  'payin.create': (c) => createPayIn(c.state, c.merchant, c.body, false),
  'payin.createLegacy': (c) => createPayIn(c.state, c.merchant, c.body, true),
  'payin.listPseBanks': (c) => pseBanks(c.merchant),
  'payout.create': (c) => createPayOut(c.state, c.merchant, c.body),
  'merchant.getProfile': (c) => profile(c.merchant),
  'merchant.getBalance': (c) => balance(c.merchant),
  'transactions.get': (c) => search(c.state, c.merchant, c.params.ticket, undefined),
  'transactions.getByPost': (c) => search(c.state, c.merchant, c.params.ticket, c.body),
  'sandbox.confirmPayIn': (c) => confirm(c.state, c.merchant, 'payin', c.body),
  'sandbox.confirmPayOut': (c) => confirm(c.state, c.merchant, 'payout', c.body),
};

const route = createRouter(OPERATION_LIST);

/**
 * The POST search carries its id in the body, so the simulator also takes it without the path
 * segment (`POST /api/v1/transaction`, node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md).
 */
const SEARCH_WITHOUT_ID = OPERATIONS['transactions.getByPost'].template.replace('/{ticket}', '');
const SEARCH_FORMS: Readonly<Record<string, Operation>> = {
  GET: OPERATIONS['transactions.get'],
  POST: OPERATIONS['transactions.getByPost'],
};

/** Routes of the simulator itself, outside the service's table (checkout page, documents). */
export type ExtraRoute = (
  state: SandboxState,
  request: SandboxRequest,
  path: string,
) => SandboxResponse | undefined;

export function handle(
  state: SandboxState,
  request: SandboxRequest,
  extras: readonly ExtraRoute[] = [],
): SandboxResponse {
  const method = request.method.toUpperCase();
  const path = request.path.split('?', 1)[0] ?? '';
  let match = route(method, request.path);
  if (match.found === 'nothing' && stripSlash(path) === SEARCH_WITHOUT_ID) match = searchWithoutId(method);
  switch (match.found) {
    case 'operation':
      return run(state, request, match.operation, match.params);
    case 'wrong-method':
      return methodNotAllowed(path, match.allowed);
    case 'bad-path':
      return invalid('The path holds invalid percent-encoding.');
    default:
      for (const extra of [checkoutRoute, openApiRoute, ...extras]) {
        const answer = extra(state, request, path);
        if (answer) return answer;
      }
      return fail(404, 'NOT_FOUND', `No endpoint ${method} ${path} in this service.`);
  }
}

/** Authenticate by the operation's rule, read the JSON body it takes, answer. */
function run(
  state: SandboxState,
  request: SandboxRequest,
  operation: Operation,
  params: Readonly<Record<string, string>>,
): SandboxResponse {
  const merchant = state.merchants.authenticate(
    getHeader(request.headers, 'authorization'),
    getHeader(request.headers, 'token-top'),
    operation.auth === 'token',
  );
  if (!isMerchant(merchant)) return merchant;
  let body: unknown;
  if (operation.request) {
    const refused = refuseDepth(request.body);
    if (refused) return refused;
    body = readJson(request.body);
    if (body === NOT_JSON) return invalid('The request body is not valid JSON.');
  }
  const id = operation.id as OperationId;
  const target = { operation: id, merchant: merchant.username, subject: subjectOf(params, body) };
  const commit = () => ENDPOINTS[id]({ state, merchant, body, params });
  return noteExchange(answerWithFaults(state, target, commit), target);
}

/** What the request is about, for fault draws and the terminal: a ticket, reference or transaction id. */
function subjectOf(params: Readonly<Record<string, string>>, body: unknown): string {
  if (params.ticket !== undefined) return params.ticket;
  if (!isRecord(body)) return '';
  const id = body.reference ?? body.transaction_id ?? body.ticket;
  return typeof id === 'string' ? id.slice(0, 200) : '';
}

function searchWithoutId(method: string): RouteMatch {
  const operation = SEARCH_FORMS[method];
  return operation
    ? { found: 'operation', operation, params: {} }
    : { found: 'wrong-method', allowed: ['GET', 'POST'] };
}

function methodNotAllowed(path: string, allowed: readonly string[]): SandboxResponse {
  const response = fail(405, 'METHOD_NOT_ALLOWED', `${stripSlash(path)} accepts ${allowed.join(' and ')}.`);
  response.headers.allow = allowed.join(', ');
  return response;
}

/** The hosted checkout behind payment_url (checkout.ts): GET shows it, POST pays. */
const checkoutRoute: ExtraRoute = (state, request, path) => {
  if (!path.startsWith('/checkout/')) return undefined;
  const method = request.method.toUpperCase();
  let ticket: string | undefined;
  try {
    ticket = decodeURIComponent(path.slice('/checkout/'.length));
  } catch {
    ticket = undefined;
  }
  const transaction = ticket === undefined ? undefined : state.transactions.get(ticket);
  if (method === 'GET') return checkoutPage(transaction);
  if (method !== 'POST') return fail(405, 'METHOD_NOT_ALLOWED', 'The checkout accepts GET and POST.');
  let input = readJson(request.body);
  if (input === NOT_JSON && typeof request.body === 'string') {
    input = Object.fromEntries(new URLSearchParams(request.body));
  }
  const fields = isRecord(input) ? input : {};
  const status = nonEmpty(fields.status);
  const cardNumber = nonEmpty(fields.card_number);
  return completePayment(state, transaction, {
    ...(status ? { status } : {}),
    ...(cardNumber ? { card_number: cardNumber } : {}),
  });
};

/** GET {base_url}/openapi.json: the service's OpenAPI document, naming this simulator as its server; no credentials. */
const openApiRoute: ExtraRoute = (state, request, path) => {
  if (stripSlash(path) !== '/openapi.json') return undefined;
  if (request.method.toUpperCase() !== 'GET') return methodNotAllowed(path, ['GET']);
  if (openApi?.baseUrl !== state.baseUrl) {
    openApi = { baseUrl: state.baseUrl, document: buildOpenApiDocument({ serverUrl: state.baseUrl }) };
  }
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: openApi.document,
  };
};
let openApi: { baseUrl: string; document: unknown } | undefined;

function stripSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function isMerchant(value: SandboxMerchant | SandboxResponse): value is SandboxMerchant {
  return (value as SandboxMerchant).token !== undefined;
}
