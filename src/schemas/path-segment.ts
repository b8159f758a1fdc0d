/**
 * Lives beside the schemas, the lowest layer, because both the create schemas (a reference must
 * round-trip) and src/api/paths.ts (every path built) apply it.
 *
 * A path segment built from a caller's value must reach the server as exactly that value. URL
 * parsing (WHATWG, what fetch, node:http's `new URL` and every proxy in between apply) removes
 * dot segments: `.` and `..` — and their percent forms `%2e`, `.%2E`… — so a lookup of the
 * reference `..` at `/api/v1/transaction/..` reaches `/api/v1/` instead, finds nothing, and a
 * re-run pays again. Any value holding a `.` is checked by the URL parser itself, not against a
 * list of shapes.
 */

/** A UTF-16 surrogate, paired or not: only a lone one makes `encodeURIComponent` throw. */
const SURROGATE = /[\uD800-\uDFFF]/;

/** A base whose path the segment is parsed under, between two fixed segments. */
const PROBE_BASE = 'http://segment.invalid/before/';

/** Why `value` cannot be sent as one path segment, or undefined when it round-trips exactly. */
export function segmentProblem(value: string): string | undefined {
  if (value === '') return 'must not be empty (the path would name another endpoint)';
  // Without a '.' or any surrogate, encoding cannot throw nor bring a '.' (below): the common
  // case, checked on every create's reference and every path built, makes no encoded copy.
  if (!value.includes('.') && !SURROGATE.test(value)) return undefined;
  let encoded: string;
  try {
    encoded = encodeURIComponent(value);
  } catch {
    return 'holds a lone UTF-16 surrogate, which no URL can carry; send well-formed text';
  }
  // A dot segment is made of '.' and '%2e' only, and encoding turns every '%' into '%25': without
  // a '.', nothing can change (the common case, a UUID ticket, skips the parse).
  if (!encoded.includes('.')) return undefined;
  const { pathname } = new URL(`${encoded}/after`, PROBE_BASE);
  const segment = /^\/before\/([^/]*)\/after$/.exec(pathname)?.[1];
  if (segment !== undefined && safeDecode(segment) === value) return undefined;
  return `cannot be ${JSON.stringify(value)}: URL parsing treats it as a dot segment and removes it, so the request would reach another path (a lookup would not find it)`;
}

function safeDecode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
