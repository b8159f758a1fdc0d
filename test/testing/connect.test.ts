/**
 * `connectSandbox()` honours the country and merchants it is asked for, or says why it cannot:
 * with PAYINOUT_BASE_URL set (the README exports it) the merchant is PAYINOUT_USERNAME's, checked
 * against the country through its real profile over HTTP; in-process, a country no simulator
 * merchant operates in is refused instead of silently using another merchant.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import { connectSandbox, type SandboxServer, startSandboxServer } from '../../src/testing/index.js';

let external: SandboxServer;
let env: Record<string, string>;

beforeAll(async () => {
  // Another process's `payinout sandbox`, as the README's export lines name it.
  external = await startSandboxServer({ webhooks: false });
  env = {
    PAYINOUT_BASE_URL: external.url,
    PAYINOUT_USERNAME: 'demo-co',
    PAYINOUT_PASSWORD: 'demo-co-pass',
    PAYINOUT_TOKEN: 'demo-co-token',
    PAYINOUT_ENVIRONMENT: 'staging',
  };
});
afterAll(() => external.close());

async function refusal(run: Promise<unknown>): Promise<ConfigurationError> {
  const error = await run.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConfigurationError);
  return error as ConfigurationError;
}

describe('connectSandbox with PAYINOUT_BASE_URL set', () => {
  it("country: 'MX' while the variables name the CO merchant: an error naming both and the fix", async () => {
    const error = await refusal(connectSandbox({ env, country: 'MX' }));
    expect(error.message).toContain("connectSandbox({ country: 'MX' })");
    expect(error.message).toContain(`PAYINOUT_BASE_URL is set (${external.url})`);
    expect(error.message).toMatch(/operates in COP \(CO\), not MXN \(MX\)/);
    expect(error.message).toMatch(/Export the MX merchant's PAYINOUT_USERNAME.*or unset PAYINOUT_BASE_URL/);
    expect(error.message).not.toContain('demo-co-pass');
    expect(error.message).not.toContain('demo-co-token');
  });

  it('the country of that merchant: connects to it (not simulated)', async () => {
    const mx = {
      ...env,
      PAYINOUT_USERNAME: 'demo-mx',
      PAYINOUT_PASSWORD: 'demo-mx-pass',
      PAYINOUT_TOKEN: 'demo-mx-token',
    };
    const connection = await connectSandbox({ env: mx, country: 'MX' });
    expect(connection.simulated).toBe(false);
    expect(connection.token).toBe('demo-mx-token');
    expect((await connection.client.merchant.getProfile()).currency).toBe('MXN');
  });

  it('merchants cannot be chosen there: an error saying why', async () => {
    const merchants = [{ username: 'm', password: 'p', token: 't', country: 'PE' as const }];
    const error = await refusal(connectSandbox({ env, merchants: merchants as never }));
    expect(error.message).toMatch(
      /connectSandbox\(\{ merchants \}\): PAYINOUT_BASE_URL is set .* its merchants cannot be chosen/,
    );
  });
});

describe('connectSandbox in-process', () => {
  it('a country no simulator merchant operates in: an error listing the merchants, no server left running', async () => {
    const merchants = [
      { username: 'only-pe', password: 'pe-pass', token: 'pe-token', country: 'PE' as const },
    ];
    const error = await refusal(connectSandbox({ env: {}, country: 'MX', merchants: merchants as never }));
    expect(error.message).toMatch(/no simulator merchant operates in MX \(merchants: only-pe \(PE\)\)/);
  });

  it('the default demo set has every country', async () => {
    const connection = await connectSandbox({ env: {}, country: 'MX', webhooks: false });
    try {
      expect(connection.simulated).toBe(true);
      expect(connection.merchant?.country).toBe('MX');
    } finally {
      await connection.close();
    }
  });
});
