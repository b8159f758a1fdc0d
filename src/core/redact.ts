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
 * Words that a value may contain but that identify nobody on their own: the vocabulary of the
 * service's, the simulator's and the SDK's own messages and of credentials (`demo-co-pass`), and
 * the usual e-mail mailboxes (`info`, `ventas`). A word of a value that is one of these is not
 * scrubbed by itself (the whole value still is), so "Invalid username or password." stays
 * readable when a credential or a customer's e-mail holds `pass` or `info`. No personal names.
 */
const COMMON_WORDS = new Set(
  // Credentials' and messages' words, usual mailboxes; English and Spanish. Kept short: it ships.
  'basic bearer pass password token secret user demo test live admin info contact hello support sales mail email clave usuario prueba ventas soporte contacto correo'.split(
    ' ',
  ),
);

/**
 * Replaces every echo of the given secret values in a text: exact, in another letter case or
 * without accents (banks upper-case names), JSON-escaped (\u00e9), URL- or form-encoded
 * (%C3%A9, +), digits with separators, and each word of a person's name or e-mail on its own (a
 * surname echoed alone). An echo inside a longer word takes the whole word with it: a redaction
 * never leaves half of a word ("[REDACTED]word"). Values shorter than 4 characters are ignored.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const { pattern, shortest } of patternsOf(secrets)) {
    if (out.length >= shortest) out = replaceWords(out, pattern);
  }
  return out;
}

/**
 * A piece's echo pattern, and the fewest UTF-16 units any echo of it takes: every character of
 * the piece (digit separators aside) comes back as one code point at least, so a shorter text
 * (an envelope's `code`, `status`, most header values) is never run through the pattern.
 */
interface Echo {
  pattern: RegExp;
  shortest: number;
}

/** The echo patterns of a list of secrets, and the values they were made from. */
interface Scrubber {
  values: readonly string[];
  echoes: readonly Echo[];
}

/**
 * Per list of secrets (a client's credentials, a call's secrets): one error scrubs its message,
 * each string of its body and each header value with the same list, and every call of a client
 * shares its credentials' list, so the patterns are worked out once per list, not per string.
 * The values are compared on each use: a list changed since is worked out again.
 */
const scrubbers = new WeakMap<readonly string[], Scrubber>();
const NO_ECHOES: readonly Echo[] = [];

function patternsOf(secrets: readonly string[]): readonly Echo[] {
  if (secrets.length === 0) return NO_ECHOES;
  const known = scrubbers.get(secrets);
  if (known && sameValues(known.values, secrets)) return known.echoes;
  const all = new Set<string>();
  for (const secret of secrets) if (secret.length >= MIN_SECRET) for (const p of pieces(secret)) all.add(p);
  // Longest first: a whole e-mail is replaced before the surname inside it.
  const echoes = [...all]
    .sort((a, b) => b.length - a.length)
    .map((piece) => ({ pattern: echoPattern(piece), shortest: echoChars(piece).length }));
  scrubbers.set(secrets, { values: [...secrets], echoes });
  return echoes;
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The value, and its words when it names a person: a name's given names and surnames, an
 * e-mail's local part (its domain is not personal: gmail.com must stay readable). A value without
 * a space or an '@' — a password, a token, a document — is one opaque string whose fragments
 * (`pass` of `demo-co-pass`) identify nothing. Words shorter than 4 characters or common words
 * are not scrubbed by themselves.
 */
function pieces(secret: string): string[] {
  if (!/[\s@]/.test(secret.trim())) return [secret];
  const at = secret.indexOf('@');
  const personal = at > 0 ? secret.slice(0, at) : secret;
  const words = personal.split(/[\s.,_+-]+/).filter((word) => word.length >= MIN_SECRET && !isCommon(word));
  return [secret, ...words.filter((word) => word !== secret)];
}

function isCommon(word: string): boolean {
  return COMMON_WORDS.has(
    word
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase(),
  );
}

/** Letters, combining marks, digits and `_`: what a match is widened over, so no half word stays. */
const WORD_CHAR = /[\p{L}\p{M}\p{N}_]/u;

/** Replaces each match, widened to the whole word around it, by REDACTED. Linear in the text. */
function replaceWords(text: string, pattern: RegExp): string {
  let out = '';
  let done = 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    let start = match.index;
    let end = start + Math.max(match[0].length, 1);
    while (start > done && WORD_CHAR.test(text[start - 1]!)) start--;
    while (end < text.length && WORD_CHAR.test(text[end]!)) end++;
    out += `${text.slice(done, start)}${REDACTED}`;
    done = end;
    pattern.lastIndex = end;
  }
  return done === 0 ? text : out + text.slice(done);
}

const patterns = new Map<string, RegExp>();

/**
 * The characters of `piece` its pattern is made of, one per code point: a number's separators
 * (spaces, dots, dashes) may come back or not, so they are not part of it. Each comes back as one
 * code point at least: their count is the fewest UTF-16 units an echo takes.
 */
function echoChars(piece: string): string[] {
  return [...(isNumber(piece) ? piece.replace(/[\s.-]/g, '') : piece)];
}

function isNumber(piece: string): boolean {
  return /^[\d\s.-]+$/.test(piece);
}

function echoPattern(piece: string): RegExp {
  let pattern = patterns.get(piece);
  if (!pattern) {
    const chars = echoChars(piece).map(charForms);
    pattern = new RegExp(chars.join(isNumber(piece) ? '[\\s.\\-]*' : ''), 'giu');
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
