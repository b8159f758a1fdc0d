/**
 * The simulator dashboard at {base_url}/dashboard/: merchants, balances, transactions, status
 * histories and webhook deliveries, live; confirm and resend buttons. Served only by the HTTP
 * front end (startSandboxServer, `payinout sandbox`), never by the main `payinout` entry.
 * Guide: node_modules/payinout/docs/simulator.md or https://github.com/payinout/payinout/blob/main/docs/simulator.md ("Dashboard").
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listRules } from '../faults/control.js';
import { type Sandbox, type SandboxInternals, sandboxInternals } from '../sandbox.js';
import { confirmFromDashboard, resendFromDashboard } from './actions.js';
import { authorize, DASHBOARD_REALM } from './auth.js';
import { newToken, refuseCrossSite } from './csrf.js';
import { faultsControl, faultsFromDashboard, isFaultsPath } from './faults.js';
import { type Call, readBody, SECURITY_HEADERS, sendError, sendJson, sendText } from './http.js';
import { parseListQuery } from './list.js';
import { LiveHub } from './live.js';
import { DASHBOARD_CSS, DASHBOARD_ICON, DASHBOARD_JS, dashboardHtml } from './page.js';
import { detail, overview } from './views.js';

export const DASHBOARD_PATH = '/dashboard';
const TRANSACTION_PATH = /^\/dashboard\/api\/transactions\/([^/]+)(?:\/(confirm|resend))?$/;

/** The page's static files: path → [content type, body]. */
const ASSETS: ReadonlyMap<string, readonly [string, string]> = new Map([
  ['/dashboard/app.js', ['text/javascript; charset=utf-8', DASHBOARD_JS]],
  ['/dashboard/app.css', ['text/css; charset=utf-8', DASHBOARD_CSS]],
  ['/dashboard/favicon.svg', ['image/svg+xml', DASHBOARD_ICON]],
]);

export interface Dashboard {
  /** Serves a request under /dashboard; false when the path is not the dashboard's. */
  handle(req: IncomingMessage, res: ServerResponse, path: string): boolean;
  close(): void;
}

export function createDashboard(sandbox: Sandbox, boundHost: string): Dashboard {
  const internals = sandboxInternals(sandbox);
  const token = newToken();
  const live = new LiveHub();
  const stops = internals ? subscribe(internals, live) : [];

  function route(call: Call) {
    const { req, res, path, scope } = call;
    const read = req.method === 'GET' || req.method === 'HEAD';
    const asset = ASSETS.get(path);
    if (path === DASHBOARD_PATH)
      return sendText(res, 308, 'text/plain', 'Moved', { location: '/dashboard/' });
    if (read && asset) return sendText(res, 200, asset[0], asset[1]);
    if (!internals)
      return sendError(res, 501, 'NOT_AVAILABLE', 'This sandbox was not made by createSandbox().');
    if (read && path === '/dashboard/')
      return sendText(res, 200, 'text/html; charset=utf-8', dashboardHtml(token));
    if (req.method === 'GET' && path === '/dashboard/events') {
      return live.open(req, res, SECURITY_HEADERS, scope?.username);
    }
    if (read && path === '/dashboard/api/state') {
      const merchants = scope ? [scope] : internals.state.merchants.list;
      const { faults } = internals.state;
      return sendJson(res, 200, {
        ...overview(internals, merchants, parseListQuery(req.url)),
        faults: { seed: faults.seed, rules: listRules(faults, scope?.username) },
      });
    }
    if (isFaultsPath(path)) return faultsControl(internals.state.faults, call);
    if (path.startsWith('/dashboard/api/faults'))
      return faultsFromDashboard(internals.state.faults, call, token);
    return transactionRoute(internals, call);
  }

  /** GET a transaction's view; POST its confirm or resend. */
  function transactionRoute(state: SandboxInternals, { req, res, path, scope }: Call) {
    const match = TRANSACTION_PATH.exec(path);
    const ticket = match ? safeDecode(match[1]!) : undefined;
    const transaction = ticket === undefined ? undefined : state.state.transactions.get(ticket);
    if (!match || !transaction || (scope && transaction.merchant !== scope.username)) {
      return sendError(res, 404, 'NOT_FOUND', `Nothing at ${path} on this dashboard.`);
    }
    const action = match[2];
    if (!action) {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return sendError(res, 405, 'METHOD_NOT_ALLOWED', 'Use GET.', { allow: 'GET, HEAD' });
      }
      return sendJson(res, 200, detail(state, transaction));
    }
    if (req.method !== 'POST')
      return sendError(res, 405, 'METHOD_NOT_ALLOWED', 'Use POST.', { allow: 'POST' });
    const refused = refuseCrossSite(req, token);
    if (refused) return sendError(res, 403, 'FORBIDDEN', refused);
    readBody(req, (body) => {
      if (body === undefined) return sendError(res, 413, 'PAYLOAD_TOO_LARGE', 'Body above 4 KiB.');
      const answer =
        action === 'confirm'
          ? confirmFromDashboard(state, transaction, body)
          : resendFromDashboard(state, transaction);
      sendJson(res, answer.status, answer.body);
    });
  }

  return {
    handle(req, res, path) {
      if (path !== DASHBOARD_PATH && !path.startsWith(`${DASHBOARD_PATH}/`) && !isFaultsPath(path))
        return false;
      const access = authorize(req, boundHost, internals?.state.merchants.list ?? []);
      if (access.kind === 'refused') {
        const challenge = { 'www-authenticate': `Basic realm="${DASHBOARD_REALM}", charset="UTF-8"` };
        sendText(res, access.status, 'text/plain; charset=utf-8', `${access.message}\n`, challenge);
        return true;
      }
      route({ req, res, path, scope: access.kind === 'merchant' ? access.merchant : undefined });
      return true;
    },
    close() {
      for (const stop of stops) stop();
      live.close();
    },
  };
}

/** Every creation, status change and delivery attempt becomes a live update for its merchant. */
function subscribe(internals: SandboxInternals, live: LiveHub): (() => void)[] {
  return [
    internals.state.feed.subscribe((t) => live.changed(t.merchant)),
    internals.state.faults.onChange((merchant) => (merchant ? live.changed(merchant) : live.changedAll())),
    internals.deliverer.onChange((d) => {
      const merchant = internals.state.transactions.get(d.ticket)?.merchant;
      if (merchant) live.changed(merchant);
    }),
  ];
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
