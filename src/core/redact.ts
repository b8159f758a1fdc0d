/**
 * What never leaves the process: credentials and customer PII.
 *
 * Two layers, because either alone leaks:
 * - by key: any object property named like a credential or a PII field is replaced;
 * - by value: the exact credential and PII strings of the current request are scrubbed
 *   from free text (a service message such as "documento 123 invalido" echoes them).
 */

export const REDACTED = '[REDACTED]';

/** Keys whose values are credentials or customer PII (spec: customer_data, top_user). */
const SENSITIVE_KEYS = new Set([
  'authorization',
  'token-top',
  'token',
  'password',
  'cookie',
  'set-cookie',
  'proxy-authorization',
  'x-trx-signature',
  'legal_doc',
  'email',
  'phone_number',
  'account_number',
  'clabe_number',
  'full_name',
]);

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(key.toLowerCase());
}

/** Replaces every occurrence of the given secret values in a text. Short values (< 4 chars) are ignored. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4 && out.includes(secret)) out = out.split(secret).join(REDACTED);
  }
  return out;
}

/**
 * Deep copy of a JSON-like value with sensitive keys masked and secret values scrubbed.
 * Creates plain objects with own data properties only, so a `__proto__` key is copied
 * as data, never as a prototype.
 */
export function redactValue(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return '[Truncated]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const masked = isSensitiveKey(key) && item !== null && item !== undefined && item !== '';
    Object.defineProperty(out, key, {
      value: masked ? REDACTED : redactValue(item, secrets, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/**
 * Header record with credentials masked; names lower-cased. Values are scrubbed of the request's
 * secrets too, because a misbehaving proxy may echo a credential under any header name.
 */
export function redactHeaders(
  headers: Headers | Record<string, string> | undefined,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  const entries = headers instanceof Headers ? headers.entries() : Object.entries(headers);
  for (const [name, value] of entries) {
    const key = name.toLowerCase();
    out[key] = isSensitiveKey(key) ? REDACTED : scrubText(value, secrets);
  }
  return out;
}

/** Collects the string values of sensitive keys in a request body, to scrub them from free text. */
export function collectSecrets(value: unknown, into: string[] = [], depth = 0): string[] {
  if (value === null || typeof value !== 'object' || depth > 10) return into;
  for (const [key, item] of Object.entries(value)) {
    if (isSensitiveKey(key) && (typeof item === 'string' || typeof item === 'number'))
      into.push(String(item));
    else if (typeof item === 'object') collectSecrets(item, into, depth + 1);
  }
  return into;
}
