/**
 * State-changing dashboard requests (confirm, resend) are POSTs that another site cannot make
 * on the developer's behalf: they must carry the per-server token the page reads from its own
 * HTML (another origin cannot read it), a JSON content type (a cross-site form cannot send
 * one without a CORS preflight, which this server never grants), and — when the browser says
 * where the request comes from — this very origin.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { sameText } from './auth.js';

export const TOKEN_HEADER = 'x-dashboard-token';

export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Why this POST is refused, or undefined when it may proceed. */
export function refuseCrossSite(request: IncomingMessage, token: string): string | undefined {
  const sent = request.headers[TOKEN_HEADER];
  if (typeof sent !== 'string' || !sameText(sent, token)) {
    return `Missing or wrong ${TOKEN_HEADER} header: use the dashboard page's buttons.`;
  }
  const type = request.headers['content-type'] ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type)) return 'Content-Type must be application/json.';
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return `Cross-site request refused (${site}).`;
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${request.headers.host}`) {
    return 'Cross-origin request refused.';
  }
  return undefined;
}
