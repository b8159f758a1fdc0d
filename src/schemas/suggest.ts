/**
 * "did you mean …?" for unknown request keys: a misspelled `ipnUrl` must say `ipn_url`, since the
 * service would otherwise accept the PayIn without its webhook URL.
 */

/** Per-call options that belong in a method's second argument, not in the params. */
const REQUEST_OPTIONS = new Set(['signal', 'timeout', 'timeoutms', 'maxretries', 'headers', 'retries']);

/** Case, `_` and `-` differences do not count: ipnUrl, IPN_URL and ipn-url all mean ipn_url. */
const fold = (key: string) => key.toLowerCase().replace(/[_\-\s]/g, '');

function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** How many leading characters `a` and `b` share. */
function sharedStart(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * How far `wanted` is from `candidate`: the edit distance, except that a key spelled like the
 * start of a known one but for its last letter (`maxRetry` for maxRetries, `webhook` for
 * webhookScheme) counts as near, however many letters the known one adds.
 */
function nearness(wanted: string, candidate: string): number {
  const d = distance(wanted, candidate);
  const stem = wanted.length >= 4 && sharedStart(wanted, candidate) >= wanted.length - 1;
  return stem ? Math.min(d, 2) : d;
}

/** The known key closest to `key`, if one is close enough to be a likely misspelling. */
export function closestKey(key: string, known: readonly string[]): string | undefined {
  const wanted = fold(key);
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(wanted.length / 3)) + 1;
  for (const candidate of known) {
    const d = nearness(wanted, fold(candidate));
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** The issue message for one unknown key of an object whose known keys are `known`. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  if (REQUEST_OPTIONS.has(fold(key))) {
    return 'unknown field; per-call options go in the second argument, e.g. create(params, { timeoutMs: 10_000 })';
  }
  const match = closestKey(key, known);
  return match ? `unknown field; did you mean ${match}?` : `unknown field; known fields: ${known.join(', ')}`;
}
