/**
 * Who may see the dashboard. Bound to a loopback address it is this machine's developer: no
 * login (the server checks every request's Host header first: host.ts).
 * Bound to any other address it asks for a merchant's HTTP Basic credentials and scopes
 * everything to that merchant.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isLoopbackHost } from '../host.js';
import type { SandboxMerchant } from '../types.js';

/** The outcome of {@link authorize}: everything, one merchant, or a refusal to send. */
export type Access =
  | { readonly kind: 'all' }
  | { readonly kind: 'merchant'; readonly merchant: SandboxMerchant }
  | { readonly kind: 'refused'; readonly status: 401; readonly message: string };

export const DASHBOARD_REALM = 'payinout sandbox dashboard';

export function authorize(
  request: IncomingMessage,
  boundHost: string,
  merchants: readonly SandboxMerchant[],
): Access {
  // The server already refused a Host header that does not name this machine (host.ts).
  if (isLoopbackHost(boundHost)) return { kind: 'all' };
  const merchant = basicMerchant(request.headers.authorization, merchants);
  if (merchant) return { kind: 'merchant', merchant };
  return {
    kind: 'refused',
    status: 401,
    message:
      "This dashboard is reachable from the network: sign in with a sandbox merchant's username and password.",
  };
}

function basicMerchant(header: string | undefined, merchants: readonly SandboxMerchant[]) {
  const match = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return undefined;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  const merchant = merchants.find((m) => m.username === username);
  return merchant && sameText(merchant.password, password) ? merchant : undefined;
}

/** Compares secrets in time independent of where they differ. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
