/**
 * Small readers every simulator front end shares: the request body as JSON (with a marker for
 * text that is not JSON), record checks and header lookup (the webhook verifier's, reused).
 */
export { getHeader } from '../webhooks/parse.js';

/** Marks a body that is not JSON, so `undefined` (no body) and `null` (JSON null) stay apart. */
export const NOT_JSON: unique symbol = Symbol('not json');

const decoder = new TextDecoder();

/** Raw text or bytes → parsed JSON; '' → undefined; an already parsed value passes through. */
export function readJson(body: unknown): unknown {
  if (body instanceof Uint8Array) body = decoder.decode(body);
  if (typeof body !== 'string') return body;
  if (body === '') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return NOT_JSON;
  }
}

export { isRecord } from '../core/guards.js';

/** A non-empty string, or undefined. */
export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
