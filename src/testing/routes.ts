/**
 * The request core every front end uses (node:http server, msw handlers, tests):
 * route → authenticate → read JSON → one endpoint function. Synchronous and allocation-light,
 * since `npm run bench` measures it over HTTP.
 */
import { checkoutPage, completePayment } from './checkout.js';
import { confirm } from './confirm.js';
import { refuseDepth } from './guard.js';
import { balance, profile, pseBanks, search } from './lookup.js';
import { createPayIn } from './payin.js';
import { createPayOut } from './payout.js';
import { fail, invalid } from './reply.js';
import type { SandboxState } from './state.js';
import type { SandboxMerchant, SandboxRequest, SandboxResponse } from './types.js';

type Endpoint = (
  state: SandboxState,
  merchant: SandboxMerchant,
  body: unknown,
  id?: string,
) => SandboxResponse;

interface Route {
  method: 'GET' | 'POST' | 'GET,POST';
  run: Endpoint;
  /** Spec: "The merchant profile example sends Token-Top alone". */
  tokenAlone?: boolean;
}

const ROUTES: ReadonlyMap<string, Route> = new Map<string, Route>([
  ['/api/v2/payin', { method: 'POST', run: (s, m, b) => createPayIn(s, m, b, false) }],
  ['/api/v1/payin', { method: 'POST', run: (s, m, b) => createPayIn(s, m, b, true) }],
  ['/api/v1/payout', { method: 'POST', run: createPayOut }],
  ['/api/v1/merchant/me', { method: 'GET', run: (_s, m) => profile(m), tokenAlone: true }],
  ['/api/v1/merchant/balance', { method: 'GET', run: (_s, m) => balance(m) }],
  ['/api/v1/pse/banks', { method: 'GET', run: (_s, m) => pseBanks(m) }],
  ['/api/v1/sandbox/payin/confirm', { method: 'POST', run: (s, m, b) => confirm(s, m, 'payin', b) }],
  ['/api/v1/sandbox/payout/confirm', { method: 'POST', run: (s, m, b) => confirm(s, m, 'payout', b) }],
  ['/api/v1/transaction', { method: 'GET,POST', run: (s, m, b, id) => search(s, m, id, b) }],
]);

const TRANSACTION_PREFIX = '/api/v1/transaction/';

export function handle(state: SandboxState, request: SandboxRequest): SandboxResponse {
  const method = request.method.toUpperCase();
  let path = request.path;
  const query = path.indexOf('?');
  if (query !== -1) path = path.slice(0, query);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);

  let id: string | undefined;
  let route = ROUTES.get(path);
  if (!route && path.startsWith(TRANSACTION_PREFIX)) {
    route = ROUTES.get('/api/v1/transaction');
    id = safeDecode(path.slice(TRANSACTION_PREFIX.length));
  }
  if (!route) {
    if (path.startsWith('/checkout/')) return checkout(state, method, path, request.body);
    return fail(404, 'NOT_FOUND', `No endpoint ${method} ${path} in this service.`);
  }
  if (!route.method.includes(method) || (method !== 'GET' && method !== 'POST')) {
    const response = fail(
      405,
      'METHOD_NOT_ALLOWED',
      `${path} accepts ${route.method.replace(',', ' and ')}.`,
    );
    response.headers.allow = route.method.replace(',', ', ');
    return response;
  }

  const headers = request.headers;
  const auth = state.merchants.authenticate(
    header(headers, 'authorization'),
    header(headers, 'token-top'),
    route.tokenAlone === true,
  );
  if (!isMerchant(auth)) return auth;

  let body: unknown;
  if (method === 'POST') {
    const refused = refuseDepth(request.body);
    if (refused) return refused;
    const read = readJson(request.body);
    if (read === INVALID) return invalid('The request body is not valid JSON.');
    body = read;
  }
  return route.run(state, auth, body, id);
}

function checkout(state: SandboxState, method: string, path: string, rawBody: unknown): SandboxResponse {
  const ticket = safeDecode(path.slice('/checkout/'.length));
  const transaction = ticket === undefined ? undefined : state.transactions.get(ticket);
  if (method === 'GET') return checkoutPage(transaction);
  if (method !== 'POST') return fail(405, 'METHOD_NOT_ALLOWED', 'The checkout accepts GET and POST.');
  let input = readJson(rawBody);
  if (input === INVALID && typeof rawBody === 'string')
    input = Object.fromEntries(new URLSearchParams(rawBody));
  const fields = input !== null && typeof input === 'object' ? (input as Record<string, unknown>) : {};
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  const status = str(fields.status);
  const cardNumber = str(fields.card_number);
  return completePayment(state, transaction, {
    ...(status ? { status } : {}),
    ...(cardNumber ? { card_number: cardNumber } : {}),
  });
}

function isMerchant(value: SandboxMerchant | SandboxResponse): value is SandboxMerchant {
  return (value as SandboxMerchant).token !== undefined;
}

/** Node lower-cases header names; other callers may not. */
function header(headers: SandboxRequest['headers'], name: string): string | undefined {
  let value = headers[name];
  if (value === undefined) {
    for (const key in headers) {
      if (key.toLowerCase() === name) {
        value = headers[key];
        break;
      }
    }
  }
  return Array.isArray(value) ? value[0] : value;
}

const INVALID = Symbol('invalid json');
const decoder = new TextDecoder();

function readJson(body: unknown): unknown {
  if (body instanceof Uint8Array) body = decoder.decode(body);
  if (typeof body !== 'string') return body;
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return INVALID;
  }
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
