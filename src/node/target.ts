/**
 * Where a request goes, as node:http's options. Handing node:http the URL as text makes it parse
 * it with WHATWG `URL` and copy it with `urlToHttpOptions` on every request, ~1.2 µs of a call
 * whose origin is always the client's: the origin is parsed once here, and a path `URL` would
 * send exactly as written is passed as it is. Any other URL is left to node:http as before.
 */

import type { RequestOptions } from 'node:http';

/** What node:http reads of an origin (the fields `urlToHttpOptions` gives it). */
export interface Origin {
  protocol: string;
  hostname: string;
  port?: number;
}

/** A scheme, then a host name, an IPv4 or a bracketed IPv6 address, and a port: no user info, nothing else. */
const PLAIN_ORIGIN = /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/;

/**
 * A path of characters `URL` keeps as they are in a path (RFC 3986's unreserved and sub-delims,
 * ':', '@', '%' and '/'): no query or fragment, no space, backslash or non-ASCII, which it would
 * change or encode.
 */
const PLAIN_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/** A dot segment, written or percent-encoded (`.`, `..`, `%2e`, `.%2E`…): `URL` removes it. */
const DOT_SEGMENT = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)/i;

const origins = new Map<string, Origin | null>();
/** A process talks to a few origins; past this many the cache starts over rather than grows. */
const MAX_ORIGINS = 64;

/**
 * Points `options` at `url` (its protocol, hostname, port and path) and returns true, or returns
 * false and leaves them unset when node:http must parse `url` itself (anything `URL` would
 * rewrite, or an origin that is not plain). Set on the caller's options rather than returned as a
 * new object: a spread of one into the other costs more than the parse it saves.
 */
export function aimAt(options: RequestOptions, url: string): boolean {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  if (slash === -1) return false;
  const path = url.slice(slash);
  if (!PLAIN_PATH.test(path) || DOT_SEGMENT.test(path)) return false;
  const origin = originOf(url.slice(0, slash));
  if (!origin) return false;
  options.protocol = origin.protocol;
  options.hostname = origin.hostname;
  if (origin.port !== undefined) options.port = origin.port;
  options.path = path;
  return true;
}

function originOf(text: string): Origin | undefined {
  let origin = origins.get(text);
  if (origin === undefined) {
    origin = parseOrigin(text);
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origins.set(text, origin);
  }
  return origin ?? undefined;
}

/** As `urlToHttpOptions(new URL(text))` for the fields node:http reads; null when not plain. */
function parseOrigin(text: string): Origin | null {
  if (!PLAIN_ORIGIN.test(text) || !URL.canParse(text)) return null;
  const url = new URL(text);
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const origin: Origin = { protocol: url.protocol, hostname };
  if (url.port !== '') origin.port = Number(url.port);
  return origin;
}
