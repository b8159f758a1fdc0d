/**
 * The fault rules over HTTP. `{base_url}/_sandbox/faults` is for scripts and test suites:
 * GET lists the rules with their counts, POST adds one (a rule as JSON), DELETE removes all,
 * DELETE `/_sandbox/faults/{id}` one. It keeps the dashboard's rules: the server already checked
 * the Host header (host.ts); off loopback the merchant signs in and sees only its own rules
 * (auth.ts); a request a browser marks as coming from another site or origin is refused, and a
 * POST must be declared JSON (a cross-site form cannot, without a preflight never granted).
 * The dashboard's panel posts to `/dashboard/api/faults` with the page's token (csrf.ts).
 */
import type { IncomingMessage } from 'node:http';
import { addRule, clearRules, listRules, removeRule } from '../faults/control.js';
import type { FaultRules } from '../faults/rules.js';
import type { SandboxResponse } from '../types.js';
import { refuseCrossSite } from './csrf.js';
import { type Call, readBody, sendError, sendJson } from './http.js';

export const FAULTS_PATH = '/_sandbox/faults';
const ONE_RULE = /^\/_sandbox\/faults\/([^/]+)\/?$/;
const PANEL_RULE = /^\/dashboard\/api\/faults\/([^/]+)\/remove$/;

export function isFaultsPath(path: string): boolean {
  return path === FAULTS_PATH || path === `${FAULTS_PATH}/` || ONE_RULE.test(path);
}

/** GET/POST/DELETE /_sandbox/faults and DELETE /_sandbox/faults/{id}. */
export function faultsControl(faults: FaultRules, { req, res, path, scope }: Call) {
  const refused = refuseOtherOrigin(req);
  if (refused) return sendError(res, 403, 'FORBIDDEN', refused);
  const merchant = scope?.username;
  const one = ONE_RULE.exec(path);
  if (one) {
    if (req.method !== 'DELETE') return notAllowed(res, 'DELETE');
    return reply(res, removeRule(faults, decode(one[1]!), merchant));
  }
  switch (req.method) {
    case 'GET':
    case 'HEAD':
      return sendJson(res, 200, listRules(faults, merchant));
    case 'DELETE':
      return deleteRules(faults, req, res, merchant);
    case 'POST':
      if (!/^application\/json\s*(;|$)/i.test(req.headers['content-type'] ?? '')) {
        return sendError(
          res,
          415,
          'UNSUPPORTED_MEDIA_TYPE',
          'POST one rule as JSON (Content-Type: application/json).',
        );
      }
      return withJson(req, res, (rule) => reply(res, addRule(faults, rule, merchant)));
    default:
      return notAllowed(res, 'GET, POST, DELETE');
  }
}

/**
 * DELETE /_sandbox/faults: one rule when an id is named (`?id=fault-1`, or a JSON body
 * `{ "id": "fault-1" }`), else every rule — never all of them by a misread request.
 */
function deleteRules(
  faults: FaultRules,
  req: IncomingMessage,
  res: Call['res'],
  merchant: string | undefined,
) {
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('id');
  if (query !== null) return reply(res, removeRule(faults, query, merchant));
  withJson(req, res, (body) => {
    if (body === undefined) return reply(res, clearRules(faults, merchant));
    const id = (body as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') {
      return sendError(
        res,
        422,
        'VALIDATION_ERROR',
        'Name the rule to remove as { "id": "fault-1" }, or send no body to remove every rule.',
      );
    }
    reply(res, removeRule(faults, id, merchant));
  });
}

/** The panel: POST /dashboard/api/faults `{ spec }` adds, POST /dashboard/api/faults/{id}/remove removes. */
export function faultsFromDashboard(faults: FaultRules, { req, res, path, scope }: Call, token: string) {
  if (req.method !== 'POST') return notAllowed(res, 'POST');
  const refused = refuseCrossSite(req, token);
  if (refused) return sendError(res, 403, 'FORBIDDEN', refused);
  const merchant = scope?.username;
  const remove = PANEL_RULE.exec(path);
  if (remove) return withJson(req, res, () => reply(res, removeRule(faults, decode(remove[1]!), merchant)));
  if (path !== '/dashboard/api/faults')
    return sendError(res, 404, 'NOT_FOUND', `Nothing at ${path} on this dashboard.`);
  return withJson(req, res, (body) => reply(res, addRule(faults, body, merchant)));
}

/** Another site's page, by what the browser says: Sec-Fetch-Site, then Origin. Scripts send neither. */
function refuseOtherOrigin(req: IncomingMessage): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none')
    return `Cross-site request refused (${site}).`;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return 'Cross-origin request refused.';
  return undefined;
}

function withJson(req: IncomingMessage, res: Call['res'], use: (body: unknown) => void) {
  readBody(req, (text) => {
    if (text === undefined) return sendError(res, 413, 'PAYLOAD_TOO_LARGE', 'Body above 4 KiB.');
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      return sendError(res, 422, 'VALIDATION_ERROR', 'The request body is not valid JSON.');
    }
    use(body);
  });
}

function reply(res: Call['res'], answer: SandboxResponse): void {
  sendJson(res, answer.status, answer.body);
}

function notAllowed(res: Call['res'], allow: string): void {
  sendError(res, 405, 'METHOD_NOT_ALLOWED', `Use ${allow}.`, { allow });
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
