/** Response helpers of the dashboard: one set of security headers on every answer. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SandboxMerchant } from '../types.js';

/** One request, after access was granted; `scope` is the signed-in merchant off loopback. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  scope: SandboxMerchant | undefined;
}

/**
 * Strict: scripts, styles and fetches from this origin only, no inline code, no framing, no
 * plugins, forms post here only. The page needs nothing from any other host.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
};

export function sendText(
  res: ServerResponse,
  status: number,
  type: string,
  body: string,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    ...extra,
    'content-type': type,
    'content-length': Buffer.byteLength(body),
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  extra?: Record<string, string>,
) {
  sendText(res, status, 'application/json; charset=utf-8', JSON.stringify(value), extra);
}

/** The simulator's error envelope, so scripts read dashboard errors like API errors. */
export function sendError(
  res: ServerResponse,
  status: number,
  error: string,
  message: string,
  extra?: Record<string, string>,
) {
  sendJson(res, status, { code: '00', status: 'ERROR', error, message }, extra);
}

/** Largest body a dashboard action or fault rule may have. */
const MAX_ACTION_BODY = 4_096;

/** The request's body as text; undefined when above 4 KiB. */
export function readBody(req: IncomingMessage, done: (body: string | undefined) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size <= MAX_ACTION_BODY) chunks.push(chunk);
  });
  req.on('end', () => done(size > MAX_ACTION_BODY ? undefined : Buffer.concat(chunks).toString('utf8')));
}
