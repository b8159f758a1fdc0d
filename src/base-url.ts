/**
 * What is wrong with a client's `baseUrl`, each problem a sentence for ConfigurationError. The
 * address is repeated only without its user:password@ part, and not at all when it embeds
 * credentials.
 */

const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

/** Anything before an '@' in the authority part, with or without a scheme and its slashes. */
const USER_INFO = /^(?:[a-z][a-z0-9+.-]*:)?[\\/]*[^/?#\\]*@/i;

export function baseUrlProblems(baseUrl: unknown): string[] {
  if (typeof baseUrl !== 'string' || baseUrl.trim() === '') return [];
  // Checked on the text as well as on the parsed URL: an address too malformed to parse may
  // still carry a password, and the parser and any pattern can disagree on where its userinfo
  // ends (a password holding '/', '#' or '\\', a scheme with a typo). An environment root never
  // holds an '@', so any '@' counts as credentials and the address is not repeated.
  const embedsCredentials = baseUrl.includes('@') || USER_INFO.test(baseUrl.trim());
  const problems: string[] = [];
  if (embedsCredentials) {
    problems.push(
      'baseUrl must not embed credentials (user:password@); pass username and password as options. The address is not repeated here because it holds a secret.',
    );
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    problems.push(
      `baseUrl ${embedsCredentials ? '' : `'${withoutUserInfo(baseUrl)}' `}is not an absolute URL; use the https root address issued by the service.`,
    );
    return problems;
  }
  return [...problems, ...parsedProblems(baseUrl, url, embedsCredentials)];
}

/** The problems of an address that parses. */
function parsedProblems(baseUrl: string, url: URL, embedsCredentials: boolean): string[] {
  const problems: string[] = [];
  const loopback = LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    problems.push(
      `baseUrl must use https (got ${url.protocol}//${url.host}): credentials are sent on every request. Plain http is allowed only for localhost, 127.0.0.1 and [::1] (the local simulator).`,
    );
  }
  if (!embedsCredentials && (url.username || url.password)) {
    problems.push(
      'baseUrl must not embed credentials (user:password@); pass username and password as options.',
    );
  }
  // Paths are appended to the text: after a `?` they would land in the query, after a `#` they
  // would never be sent (a create POSTed to the root). The query is not repeated: it may hold a key.
  if (/[?#]/.test(baseUrl)) {
    problems.push(
      'baseUrl must not hold a query (?…) or a fragment (#…): payinout joins paths such as /api/v2/payin to it. Remove everything from the ? or #.',
    );
  }
  const version = /\/api\/v\d+\/?$/i.exec(url.pathname)?.[0]?.replace(/\/$/, '');
  if (version) {
    problems.push(
      `baseUrl ends in ${version}, but it must be the environment root: payinout joins paths such as /api/v2/payin and /api/v1/payout to it. Remove ${version} from baseUrl.`,
    );
  }
  return problems;
}

/** A URL as text without anything between '//' and '@' (where user:password would be). */
function withoutUserInfo(text: string): string {
  return text.trim().replace(USER_INFO, (match) => match.replace(/[^/:]*:?[^/]*@$/, ''));
}
