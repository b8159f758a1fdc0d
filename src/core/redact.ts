/**
 * What never leaves the process: credentials and customer PII.
 *
 * Two layers, because either alone leaks:
 * - by key: any object property named like a credential or a PII field is replaced;
 * - by value: the exact credential and PII strings of the current request are scrubbed
 *   from free text (a service message such as "documento 123 invalido" echoes them).
 */

export const REDACTED = '[REDACTED]';

/** Keys whose values are credentials or customer PII (spec: customer_data, top_user), compared
 * lower-cased without separators, so `Full-Name`, `fullName` and `FULL_NAME` are all caught. */
const SENSITIVE_KEYS = new Set(
  [
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
  ].map(keyShape),
);

function keyShape(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEYS.has(keyShape(key));
}

/** Shortest value (or word of a value) scrubbed from free text: shorter ones match everywhere. */
const MIN_SECRET = 4;

/**
 * Replaces every echo of the given secret values in a text: exact, in another letter case or
 * without accents (banks upper-case names), JSON-escaped (\u00e9), URL- or form-encoded
 * (%C3%A9, +), digits with separators, and each word of a longer value on its own (a surname
 * echoed inside a longer word). Values shorter than 4 characters are ignored.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  const all: string[] = [];
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET) continue;
    if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    all.push(...pieces(secret));
  }
  // Longest first: a whole e-mail is replaced before the surname inside it.
  all.sort((a, b) => b.length - a.length);
  for (const piece of all) out = out.replace(echoPattern(piece), REDACTED);
  return out;
}

/**
 * The value, and its words of 4+ characters when it has several: a name's given names and
 * surnames, an e-mail's local part (its domain is not personal: gmail.com must stay readable).
 */
function pieces(secret: string): string[] {
  const at = secret.indexOf('@');
  const personal = at > 0 ? secret.slice(0, at) : secret;
  const words = personal.split(/[\s.,_+-]+/).filter((word) => word.length >= MIN_SECRET);
  return [secret, ...words.filter((word) => word !== secret)];
}

const patterns = new Map<string, RegExp>();

function echoPattern(piece: string): RegExp {
  let pattern = patterns.get(piece);
  if (!pattern) {
    const digits = /^[\d\s.-]+$/.test(piece);
    const chars = [...piece.replace(/[\s.-]/g, digits ? '' : '$&')].map(charForms);
    pattern = new RegExp(chars.join(digits ? '[\\s.\\-]*' : ''), 'giu');
    if (patterns.size > 500) patterns.clear();
    patterns.set(piece, pattern);
  }
  pattern.lastIndex = 0;
  return pattern;
}

/** Every way one character of a value can come back: as itself in any case, without its accent,
 * as a JSON \uXXXX escape, URL-encoded, or (a space) as + or %20. */
function charForms(char: string): string {
  const forms = new Set<string>();
  const bare = char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  for (const c of new Set([
    char,
    char.toLowerCase(),
    char.toUpperCase(),
    bare,
    bare.toLowerCase(),
    bare.toUpperCase(),
  ])) {
    if (c === '') continue;
    forms.add(escapeRegExp(c));
    for (const unit of c.split('')) forms.add(`\\\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
    forms.add([...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join(''));
  }
  if (/\s/.test(char)) forms.add('\\+').add('%20').add('\\s');
  return `(?:${[...forms].join('|')})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A value redacted in full, and only then cut: a secret across the cut never leaks a prefix. */
export function redactAndCut(value: unknown, secrets: readonly string[] = [], limit = 2000): unknown {
  const redacted = redactValue(value, secrets);
  return typeof redacted === 'string' && redacted.length > limit ? redacted.slice(0, limit) : redacted;
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
