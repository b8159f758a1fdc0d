/**
 * Several merchants, one receiver: the `token` option of `verifyWebhook` and
 * `createWebhookHandler` is one merchant token, an array of them, or a record
 * `{ [merchant]: token }` (a merchant with CO, PE and MX accounts runs one endpoint). A delivery
 * is checked against every token, each in constant time, and the merchant whose token signed it
 * (the record key, or the array index) is named to `onEvent`.
 */
import { ConfigurationError } from '../core/errors.js';

/** One merchant token, several (`['tok-co', 'tok-pe']`), or several by merchant (`{ co: 'tok-co' }`). */
export type WebhookTokens = string | readonly string[] | Readonly<Record<string, string>>;

/** One token of a keyring, and how `onEvent` names its merchant (undefined for a single token). */
export interface KeyringEntry {
  merchant: string | number | undefined;
  token: string;
}

/** The tokens to check a delivery against, in the order given. */
export interface Keyring {
  entries: readonly KeyringEntry[];
  /** Whether `token` was given as an array or a record (then `merchant` is reported). */
  several: boolean;
}

const NEEDS_TOKEN =
  'needs { token }: the merchant token (PAYINOUT_TOKEN) the service signs webhooks with, or several as an array or a record { [merchant]: token }.';

/** The keyring of one merchant token (already checked: a non-empty string). */
export function singleKeyring(token: string): Keyring {
  return { entries: [{ merchant: undefined, token }], several: false };
}

/** The tokens of an option, checked: a ConfigurationError (naming the entry, never the value) otherwise. */
export function keyringOf(token: unknown, who: string): Keyring {
  if (typeof token === 'string') {
    if (!token) throw new ConfigurationError(`${who} ${NEEDS_TOKEN}`);
    return singleKeyring(token);
  }
  if (token === null || typeof token !== 'object') throw new ConfigurationError(`${who} ${NEEDS_TOKEN}`);
  const pairs: [string | number, unknown][] = Array.isArray(token)
    ? token.map((value, index) => [index, value])
    : Object.entries(token);
  if (pairs.length === 0)
    throw new ConfigurationError(`${who}: token lists no merchant token. ${who} ${NEEDS_TOKEN}`);
  const bad = pairs.filter(([, value]) => typeof value !== 'string' || value === '').map(([key]) => key);
  if (bad.length) {
    throw new ConfigurationError(
      `${who}: token ${bad.map((key) => (typeof key === 'number' ? `[${key}]` : `'${key}'`)).join(', ')} must be a non-empty string (the merchant token of that account).`,
    );
  }
  refuseSharedTokens(pairs as [string | number, string][], who);
  return { entries: pairs.map(([merchant, value]) => ({ merchant, token: value as string })), several: true };
}

/**
 * Two merchants with one token: a delivery it signs cannot say which merchant it is for, and
 * `onEvent` would be told the first one. Refused at startup, naming the entries, never the token.
 */
function refuseSharedTokens(pairs: readonly [string | number, string][], who: string): void {
  const first = new Map<string, string | number>();
  for (const [merchant, value] of pairs) {
    const earlier = first.get(value);
    if (earlier === undefined) {
      first.set(value, merchant);
      continue;
    }
    const name = (key: string | number) => (typeof key === 'number' ? `[${key}]` : `'${key}'`);
    throw new ConfigurationError(
      `${who}: token ${name(earlier)} and ${name(merchant)} are the same token, so a delivery signed with it could not say which merchant it is for. Give each merchant its own token (PAYINOUT_TOKEN of that account), once.`,
    );
  }
}

/**
 * The entry whose expected signature (`expected[i]` for `keyring.entries[i]`) equals `received`,
 * or undefined. Every signature is compared, each in constant time, whether or not an earlier one
 * matched: the time taken says nothing about which merchant (or whether any) signed it.
 */
export function signerOf(
  keyring: Keyring,
  received: string,
  expected: readonly string[],
  matches: (received: string, expected: string) => boolean,
): KeyringEntry | undefined {
  let signer: KeyringEntry | undefined;
  keyring.entries.forEach((entry, index) => {
    if (matches(received, expected[index] as string) && !signer) signer = entry;
  });
  return signer;
}

/** The token values, to scrub from anything logged. */
export function tokensOf(keyring: Keyring): string[] {
  return keyring.entries.map((entry) => entry.token);
}
