/**
 * Who may talk to the HTTP simulator. Bound to a loopback address, every request (API,
 * dashboard, checkout, openapi.json) must name this machine and this port in its Host header:
 * a page from another site that re-points its own name at 127.0.0.1 (DNS rebinding) sends its
 * own name, so it can neither read balances nor approve payments with the printed demo
 * credentials. Bound to any other address the simulator is reachable from the network, so its
 * demo merchants get random passwords and tokens instead of the documented ones.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { demoMerchants } from './merchants.js';
import type { SandboxMerchant, SandboxMerchantSeed } from './types.js';

/** 127.0.0.0/8, ::1 and localhost (with or without the IPv6 brackets). */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === 'localhost' || bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
  return isIP(bare) === 4 && bare.startsWith('127.');
}

/** 'example.com:4010' → ['example.com', 4010]; a Host without a port means HTTP's 80. */
function splitHost(hostHeader: string): [name: string, port: number] {
  const bracket = hostHeader.startsWith('[') ? hostHeader.indexOf(']') : -1;
  const colon = hostHeader.indexOf(':', bracket + 1);
  if (colon === -1) return [hostHeader, 80];
  const port = hostHeader.slice(colon + 1);
  return [hostHeader.slice(0, colon), /^\d{1,5}$/.test(port) ? Number(port) : Number.NaN];
}

/**
 * Why a request to a loopback-bound simulator is refused, or undefined when its Host header
 * names a loopback host on the port it listens on. Off loopback: always undefined.
 */
export function refuseForeignHost(
  request: IncomingMessage,
  boundHost: string,
  port: number,
): string | undefined {
  if (!isLoopbackHost(boundHost)) return undefined;
  const header = request.headers.host;
  const expected = `localhost:${port}, 127.0.0.1:${port} or [::1]:${port}`;
  if (!header) return `A request without a Host header is refused: address this simulator as ${expected}.`;
  const [name, sentPort] = splitHost(header);
  if (isLoopbackHost(name) && sentPort === port) return undefined;
  return (
    `Host '${header.slice(0, 100)}' refused: this simulator is bound to a loopback address and answers ` +
    `only requests addressed to ${expected} (a page served under another name cannot use it).`
  );
}

/** The demo merchants, each with a random password and token (never the documented ones). */
export function randomDemoMerchants(): SandboxMerchantSeed[] {
  const secret = () => randomBytes(18).toString('base64url');
  return demoMerchants().map((seed) => ({ ...seed, password: secret(), token: secret() }));
}

/** Merchants whose password or token is the documented demo one (`demo-co-pass`, …). */
export function withDocumentedCredentials(merchants: readonly SandboxMerchant[]): SandboxMerchant[] {
  const documented = new Set(demoMerchants().flatMap((seed) => [seed.password, seed.token]));
  return merchants.filter((m) => documented.has(m.password) || documented.has(m.token));
}
