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
  /** 0 for the scheme's default. */
  port: number;
}

/**
 * A path of characters `URL` keeps as they are in a path (RFC 3986's unreserved and sub-delims,
 * ':', '@', '%' and '/'; no query or fragment, no space, backslash or non-ASCII, which it would
 * change or encode), with no dot segment, written or percent-encoded (`.`, `..`, `%2e`,
 * `.%2E`…), which it removes.
 */
const PLAIN_PATH = /^(?!.*\/(?:\.|%2e){1,2}(?:\/|$))\/[\w\-.~!$&'()*+,;=:@%/]*$/i;

/** Origins as parsed, or null when not plain; a process talks to a few, and past 64 starts over. */
const origins = new Map<string, Origin | null>();

/**
 * Points `options` at `url` (its protocol, hostname, port and path) and returns true, or returns
 * false and leaves them unset when node:http must parse `url` itself (anything `URL` would
 * rewrite, or an origin that is not plain). Set on the caller's options rather than returned as a
 * new object: a spread of one into the other costs more than the parse it saves.
 */
export function aimAt(options: RequestOptions, url: string): boolean {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  const path = url.slice(slash);
  if (slash < 0 || !PLAIN_PATH.test(path)) return false;
  const text = url.slice(0, slash);
  let origin = origins.get(text);
  if (origin === undefined) {
    origin = originOf(text);
    if (origins.size > 63) origins.clear();
    origins.set(text, origin);
  }
  if (!origin) return false;
  options.protocol = origin.protocol;
  options.hostname = origin.hostname;
  if (origin.port) options.port = origin.port;
  options.path = path;
  return true;
}

/**
 * As `urlToHttpOptions(new URL(text))` for the fields node:http reads, when `text` is exactly an
 * origin as `URL` writes it (`http://host:port`: no user info, no default port, lower case);
 * null otherwise.
 */
function originOf(text: string): Origin | null {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url?.origin !== text || !/^https?:$/.test(url.protocol)) return null;
  const { hostname, port } = url;
  return { protocol: url.protocol, hostname: hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(port) };
}
