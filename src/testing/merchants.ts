/** Merchants of the simulator: credentials, country → currency, balance (guide "Authentication"). */
import { COUNTRIES, COUNTRY_CODES, type CountryCode } from '../schemas/catalog.js';
import { unauthorized } from './reply.js';
import type { SandboxMerchant, SandboxMerchantSeed, SandboxResponse } from './types.js';

/** One demo merchant per country; `payinout sandbox` without --merchant prints these. */
export function demoMerchants(): SandboxMerchantSeed[] {
  return COUNTRY_CODES.map((country) => {
    const lower = country.toLowerCase();
    return {
      username: `demo-${lower}`,
      password: `demo-${lower}-pass`,
      token: `demo-${lower}-token`,
      country,
    };
  });
}

export class MerchantStore {
  readonly #byBasic = new Map<string, SandboxMerchant>();
  readonly #byToken = new Map<string, SandboxMerchant>();
  readonly list: SandboxMerchant[] = [];

  constructor(seeds: readonly SandboxMerchantSeed[]) {
    for (const seed of seeds) this.add(seed);
  }

  add(seed: SandboxMerchantSeed): SandboxMerchant {
    const info = COUNTRIES[seed.country as CountryCode];
    if (!info)
      throw new Error(`Unknown merchant country '${seed.country}'; use one of ${COUNTRY_CODES.join(', ')}.`);
    for (const key of ['username', 'password', 'token'] as const) {
      if (typeof seed[key] !== 'string' || seed[key] === '')
        throw new Error(`Merchant ${key} must be a non-empty string.`);
    }
    if (this.#byToken.has(seed.token))
      throw new Error(`Two merchants share the token of '${seed.username}'.`);
    if (this.list.some((m) => m.username === seed.username))
      throw new Error(`Two merchants share the username '${seed.username}'.`);
    const merchant: SandboxMerchant = {
      username: seed.username,
      password: seed.password,
      token: seed.token,
      country: info.code,
      currency: info.currency,
      name: seed.name ?? `${seed.username} (sandbox ${info.name})`,
      nit: seed.nit ?? '900123456-7',
      email: seed.email ?? `${seed.username}@merchant.sandbox.payinout.dev`,
      balance: seed.balance ?? 0,
    };
    const basic = `Basic ${Buffer.from(`${seed.username}:${seed.password}`, 'utf8').toString('base64')}`;
    this.#byBasic.set(basic, merchant);
    this.#byToken.set(seed.token, merchant);
    this.list.push(merchant);
    return merchant;
  }

  byUsername(username: string): SandboxMerchant | undefined {
    return this.list.find((m) => m.username === username);
  }

  /**
   * Basic auth + Token-Top of the same merchant (guide "Authentication", rules 1–2). The merchant
   * profile "example sends Token-Top alone", so `tokenAlone` lets that endpoint skip Basic —
   * but a Basic header that is present must still be right.
   */
  authenticate(
    authorization: string | undefined,
    token: string | undefined,
    tokenAlone: boolean,
  ): SandboxMerchant | SandboxResponse {
    const byToken = token === undefined ? undefined : this.#byToken.get(token);
    if (authorization === undefined) {
      if (tokenAlone && byToken) return byToken;
      return unauthorized(
        'Missing Authorization header: send HTTP Basic (username:password) and the merchant token in Token-Top.',
      );
    }
    const byBasic = this.#byBasic.get(authorization.trim().replace(/^basic /i, 'Basic '));
    if (!byBasic) return unauthorized('Invalid username or password.');
    if (token === undefined) return unauthorized('Missing Token-Top header: send the merchant token.');
    if (byToken !== byBasic) return unauthorized('Invalid merchant token for these credentials.');
    return byBasic;
  }
}

/** 'COP 1.234.567,89': currency, '.' thousands, ',' decimals (guide "Merchant balance (GET /api/v1/merchant/balance)"). */
export function formatBalance(currency: string, amount: number): string {
  const negative = amount < 0;
  const [whole = '0', fraction = '00'] = Math.abs(amount).toFixed(2).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${currency} ${negative ? '-' : ''}${grouped},${fraction}`;
}

/** Money arithmetic in cents, so 0.1 + 0.2 stays 0.3 in the balance. */
export function addMoney(a: number, b: number): number {
  return Math.round((a + b) * 100) / 100;
}
