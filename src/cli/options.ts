/** Option parsers for the CLI: each refusal names the valid range, in commander's error line. */
import { InvalidArgumentError } from 'commander';
import { COUNTRY_CODES, type CountryCode } from '../schemas/catalog.js';
import type { SandboxMerchantSeed } from '../testing/types.js';

/** A parser for an integer option in [min, max]. */
export function integerIn(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`Expected an integer from ${min} to ${max}.`);
    }
    return n;
  };
}

/** --time-scale: any positive factor up to 1000 (1 = real time, 0.001 = a thousand times faster). */
export function timeScale(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 1000) {
    throw new InvalidArgumentError('Expected a number above 0 and at most 1000, e.g. 0.001 (1 = real time).');
  }
  return n;
}

/** --forward-webhooks: an absolute http(s) URL. */
export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError(
      'Expected an absolute http:// or https:// URL, e.g. http://localhost:3000/webhooks.',
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError('Expected an http:// or https:// URL.');
  }
  return url.href;
}

/** --merchant USER:PASS:TOKEN:COUNTRY, repeatable. */
export function merchant(spec: string, previous: SandboxMerchantSeed[] | undefined): SandboxMerchantSeed[] {
  const parts = spec.split(':');
  const [username, password, token, country] = parts;
  if (parts.length !== 4 || !username || !password || !token || !country) {
    throw new InvalidArgumentError('Expected USER:PASS:TOKEN:COUNTRY, e.g. shop:secret:tok123:CO.');
  }
  const code = country.toUpperCase();
  if (!(COUNTRY_CODES as readonly string[]).includes(code)) {
    throw new InvalidArgumentError(`COUNTRY must be one of ${COUNTRY_CODES.join(', ')}.`);
  }
  return [...(previous ?? []), { username, password, token, country: code as CountryCode }];
}
