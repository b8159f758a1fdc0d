/**
 * Who may see the dashboard. Bound to a loopback address it is this machine's developer: no
 * login, but the Host header must name a loopback host (a DNS-rebinding page cannot read it).
 * Bound to any other address it asks for a merchant's HTTP Basic credentials and scopes
 * everything to that merchant.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { SandboxMerchant } from '../types.js';

/** The outcome of {@link authorize}: everything, one merchant, or a refusal to send. */
export type Access =
  | { readonly kind: 'all' }
  | { readonly kind: 'merchant'; readonly merchant: SandboxMerchant }
  | { readonly kind: 'refused'; readonly status: 401 | 421; readonly message: string };

export const DASHBOARD_REALM = 'payinout sandbox dashboard';

/** 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

export function authorize(
  request: IncomingMessage,
  boundHost: string,
  merchants: readonly SandboxMerchant[],
): Access {
  if (isLoopbackHost(boundHost)) {
    if (isLoopbackHost(hostname(request.headers.host ?? ''))) return { kind: 'all' };
    return {
      kind: 'refused',
      status: 421,
      message: 'This dashboard is bound to a loopback address: open it as localhost or 127.0.0.1.',
    };
  }
  const merchant = basicMerchant(request.headers.authorization, merchants);
  if (merchant) return { kind: 'merchant', merchant };
  return {
    kind: 'refused',
    status: 401,
    message:
      "This dashboard is reachable from the network: sign in with a sandbox merchant's username and password.",
  };
}

/** 'example.com:4010' → 'example.com', '[::1]:4010' → '[::1]'. */
function hostname(hostHeader: string): string {
  if (hostHeader.startsWith('[')) return hostHeader.slice(0, hostHeader.indexOf(']') + 1);
  const colon = hostHeader.lastIndexOf(':');
  return colon === -1 ? hostHeader : hostHeader.slice(0, colon);
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
