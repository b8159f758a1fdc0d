/**
 * What the simulator refuses before parsing a request body: a Content-Type other than
 * application/json (spec "Authentication", rule 3) and JSON nested deeper than any request of
 * the service needs (a 100k-deep body would overflow the stack of whatever walks it later:
 * the schema, the echo, the serialiser).
 */
import { fail } from './reply.js';
import type { SandboxResponse } from './types.js';

/** Deeper than any request of the guide (customer_data.* is 2 levels; metadata gets room). */
export const MAX_JSON_DEPTH = 32;

/**
 * 415 for a body that is not declared JSON. The HTTP front ends (server, msw) call it: the
 * in-process `handle()` core takes raw JSON text from tests without headers.
 */
export function refuseContentType(
  contentType: string | undefined,
  body: unknown,
): SandboxResponse | undefined {
  if (isEmpty(body)) return undefined;
  if (/^application\/json\s*(;|$)/i.test(contentType?.trim() ?? '')) return undefined;
  const got = contentType ? `'${contentType.slice(0, 80)}'` : 'none';
  return fail(415, 'UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json (got ${got}).`);
}

/** 400 for JSON text nested deeper than {@link MAX_JSON_DEPTH}; undefined when fine. */
export function refuseDepth(body: unknown): SandboxResponse | undefined {
  if (isEmpty(body) || (typeof body !== 'string' && !(body instanceof Uint8Array))) return undefined;
  if (jsonDepth(typeof body === 'string' ? body : new TextDecoder().decode(body)) <= MAX_JSON_DEPTH)
    return undefined;
  return fail(400, 'BODY_TOO_DEEP', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
}

function isEmpty(body: unknown): boolean {
  return body === undefined || body === '' || (body instanceof Uint8Array && body.length === 0);
}

/** Deepest [ or { nesting of a JSON text, skipping strings; stops counting past the limit. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92)
        i++; // backslash: skip the escaped character
      else if (ch === 34) inString = false;
    } else if (ch === 34) inString = true;
    else if (ch === 91 || ch === 123) {
      if (++depth > deepest) deepest = depth;
      if (deepest > MAX_JSON_DEPTH) return deepest;
    } else if (ch === 93 || ch === 125) depth--;
  }
  return deepest;
}
