import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import pkg from '../package.json' with { type: 'json' };
import { ConfigurationError, PayinoutError, PaymentClient, VERSION } from '../src/index.js';
import { answer, BASE_URL, CREDENTIALS, makeClient, ok, recorded, useMsw } from './helpers/msw.js';

useMsw();
const env = {
  PAYINOUT_USERNAME: CREDENTIALS.username,
  PAYINOUT_PASSWORD: CREDENTIALS.password,
  PAYINOUT_TOKEN: CREDENTIALS.token,
  PAYINOUT_BASE_URL: BASE_URL,
};

describe('PaymentClient construction', () => {
  it('fails fast on a missing credential, naming it', () => {
    expect(() => new PaymentClient({ ...CREDENTIALS, password: '', baseUrl: BASE_URL })).toThrow(
      /Missing password/,
    );
    expect(
      () => new PaymentClient({ ...CREDENTIALS, baseUrl: BASE_URL, token: undefined as unknown as string }),
    ).toThrow(ConfigurationError);
  });

  it.each(['http://api.example.com', 'http://10.0.0.5:8080', 'ftp://x.test', 'not a url'])(
    'refuses baseUrl %s',
    (baseUrl) => expect(() => new PaymentClient({ ...CREDENTIALS, baseUrl })).toThrow(ConfigurationError),
  );

  it.each([
    'http://localhost:4010',
    'http://127.0.0.1:4010/api',
    'http://[::1]:4010',
    'https://api.example.com',
  ])('accepts baseUrl %s', (baseUrl) =>
    expect(new PaymentClient({ ...CREDENTIALS, baseUrl }).baseUrl).toBe(baseUrl),
  );

  it('refuses an unknown environment and negative numbers', () => {
    expect(() => makeClient({ environment: 'prod' as 'production' })).toThrow(/environment must be one of/);
    expect(() => makeClient({ timeoutMs: -1 })).toThrow(/timeoutMs/);
  });

  it('never shows credentials in inspect or JSON', () => {
    const client = makeClient();
    for (const view of [inspect(client, { depth: 10, showHidden: true }), JSON.stringify(client)]) {
      expect(view).not.toContain(CREDENTIALS.password);
      expect(view).not.toContain(CREDENTIALS.token);
    }
  });

  it('is immutable: per-request options and assignments do not change it', async () => {
    const client = makeClient();
    expect(() => {
      (client as { environment: string }).environment = 'production';
    }).toThrow(TypeError);
    expect(client.environment).toBe('staging');
  });
});

describe('PaymentClient.fromEnv', () => {
  it('reads the PAYINOUT_* variables', async () => {
    answer('get', '/api/v1/merchant/me', () =>
      ok({ name: 'n', nit: '1', email: 'e', currency: 'COP', wallet: 0 }),
    );
    const client = PaymentClient.fromEnv({ ...env, PAYINOUT_ENVIRONMENT: 'UAT' }, { maxRetries: 0 });
    expect(client.environment).toBe('uat');
    await client.merchant.getProfile();
    expect(recorded[0]!.headers.get('token-top')).toBe(CREDENTIALS.token);
  });

  it('names every missing variable', () => {
    const error = (() => {
      try {
        PaymentClient.fromEnv({ PAYINOUT_USERNAME: 'u', PAYINOUT_TOKEN: ' ' });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error).toBeInstanceOf(PayinoutError);
    expect(error!.message).toContain('PAYINOUT_PASSWORD, PAYINOUT_TOKEN, PAYINOUT_BASE_URL');
  });
});

describe('VERSION', () => {
  it('matches package.json', () => expect(VERSION).toBe(pkg.version));

  it('is the newest dated CHANGELOG release, under an open Unreleased section', () => {
    const headings =
      readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8').match(/^## .*/gm) ?? [];
    expect(headings[0]).toMatch(/^## Unreleased \(\d+\.\d+\.\d+\)$/);
    const released = headings.find((line) => /^## \[\d+\.\d+\.\d+\] - \d{4}-\d{2}-\d{2}$/.test(line));
    expect(released).toMatch(new RegExp(`^## \\[${VERSION.replace(/\./g, '\\.')}\\] - `));
  });

  it('is the version the User-Agent announces', async () => {
    answer('get', '/api/v1/merchant/balance', () =>
      ok({ balance: 0, currency: 'COP', balance_formatted: 'COP 0,00' }),
    );
    await makeClient().merchant.getBalance();
    expect(recorded[0]?.headers.get('user-agent')).toMatch(
      new RegExp(`^payinout/${VERSION.replace(/\./g, '\\.')}`),
    );
  });
});
