/**
 * The crypto the webhook code needs — SHA-256 hex, a constant-time compare, random ids — without
 * a static `node:` import, so `payinout` loads where there are no Node built-ins (Vercel's Edge
 * Runtime). node:crypto is found at run time through `process.getBuiltinModule` (Node ≥ 20.16,
 * Bun, Deno, Workers with nodejs_compat); without it the async forms use Web Crypto.
 */
import { ConfigurationError } from '../core/errors.js';

type NodeCrypto = typeof import('node:crypto');

/** node:crypto when the runtime offers it, else undefined. Tests pass `null` to force Web Crypto. */
let nodeCrypto: NodeCrypto | undefined | null = null;

function loadNodeCrypto(): NodeCrypto | undefined {
  if (nodeCrypto === null) {
    try {
      const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
      nodeCrypto = process?.getBuiltinModule?.('node:crypto') as NodeCrypto | undefined;
    } catch {
      nodeCrypto = undefined;
    }
  }
  return nodeCrypto;
}

/** @internal For tests only: pretend node:crypto is absent (true) or look it up again (false). */
export function simulateNoNodeCrypto(absent: boolean): void {
  nodeCrypto = absent ? undefined : null;
}

/** Hex SHA-256 of UTF-8 text, synchronously: node:crypto only. */
export function sha256Hex(text: string): string {
  const crypto = loadNodeCrypto();
  if (!crypto) {
    throw new ConfigurationError(
      'No node:crypto on this runtime: use verifyWebhookAsync / computeWebhookSignatureAsync (Web Crypto) instead of the sync forms.',
    );
  }
  // crypto.hash (Node ≥ 20.12) skips the Hash object: ~2× faster for these short inputs.
  return typeof crypto.hash === 'function'
    ? crypto.hash('sha256', text, 'hex')
    : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Hex SHA-256 of UTF-8 text: node:crypto when present (no await cost), else Web Crypto. */
export async function sha256HexAsync(text: string): Promise<string> {
  if (loadNodeCrypto()) return sha256Hex(text);
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) {
    throw new ConfigurationError(
      'No node:crypto nor Web Crypto (crypto.subtle) here: webhooks cannot be verified.',
    );
  }
  const digest = new Uint8Array(await subtle.digest('SHA-256', new TextEncoder().encode(text)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/**
 * Constant-time equality of two strings. Lengths are not secret (a SHA-256 hex digest is always
 * 64 characters); contents are. An XOR over every UTF-16 code unit that never exits early, so it
 * runs the same on every runtime, allocates nothing and needs no node:crypto (stripe-node's
 * `secureCompare` works the same way).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** A random UUID: Web Crypto's randomUUID (every supported runtime has it), else node:crypto's. */
export function randomId(): string {
  const web = globalThis.crypto as { randomUUID?: () => string } | undefined;
  if (typeof web?.randomUUID === 'function') return web.randomUUID();
  const crypto = loadNodeCrypto();
  if (crypto) return crypto.randomUUID();
  throw new ConfigurationError('This runtime offers no crypto.randomUUID; webhook dedupe needs one.');
}
