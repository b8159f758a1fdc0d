/**
 * `connectSandbox()`: one line for examples and merchants' CI suites — the environment named by
 * PAYINOUT_* variables when PAYINOUT_BASE_URL is set (staging, UAT), otherwise the local
 * simulator started in-process.
 */
import { PaymentClient } from '../client.js';
import { ENV_VARS, type PaymentClientOptions } from '../client-options.js';
import { ConfigurationError } from '../core/errors.js';
import { COUNTRIES, type CountryCode } from '../schemas/catalog.js';
import type { Sandbox } from './sandbox.js';
import { type SandboxServer, type SandboxServerOptions, startSandboxServer } from './server.js';
import type { SandboxMerchant } from './types.js';

/** Options of {@link connectSandbox}; the simulator's options apply when it is started. */
export interface ConnectSandboxOptions extends SandboxServerOptions {
  /** Variables to read; default process.env. */
  env?: Record<string, string | undefined>;
  /**
   * The merchant's country; default 'CO' for the simulator. Against an environment named by
   * PAYINOUT_BASE_URL the merchant is the one of PAYINOUT_USERNAME: its profile's currency is
   * checked, and a country it does not operate in is a ConfigurationError saying so.
   */
  country?: CountryCode;
  /** Extra PaymentClient options (logger, appInfo, strictResponses…). */
  client?: Partial<PaymentClientOptions>;
}

/** What {@link connectSandbox} returns. */
export interface SandboxConnection {
  /** A client for the simulator's merchant, or `PaymentClient.fromEnv()` against a real environment. */
  client: PaymentClient;
  /** True when talking to the local simulator. */
  simulated: boolean;
  /** The simulator (undefined against a real environment). */
  sandbox: Sandbox | undefined;
  /** The simulator's HTTP server (undefined against a real environment). */
  server: SandboxServer | undefined;
  /** The simulator merchant behind `client` (undefined against a real environment). */
  merchant: SandboxMerchant | undefined;
  /** The merchant token, to verify webhook signatures (PAYINOUT_TOKEN against a real environment). */
  token: string;
  /** Stops the simulator; a no-op against a real environment. */
  close(): Promise<void>;
}

/**
 * One line for examples and CI suites: the environment named by the `PAYINOUT_*` variables when
 * `PAYINOUT_BASE_URL` is set (staging, UAT), otherwise the local simulator started in-process.
 * @example
 * const { client, token, simulated, close } = await connectSandbox({ country: 'CO' });
 * try {
 *   const payin = await client.payin.create({ reference: 'ci-1', amount: 150_000, currency: 'COP',
 *     country: 'CO', payment_method: 'BREB', description: 'CI', customer_data });
 * } finally {
 *   await close();
 * }
 */
export async function connectSandbox(options: ConnectSandboxOptions = {}): Promise<SandboxConnection> {
  const env = options.env ?? process.env;
  if (env[ENV_VARS.baseUrl]?.trim()) return connectToEnvironment(options, env);
  const server = await startSandboxServer(options);
  const country = options.country ?? 'CO';
  const merchant = server.sandbox.merchants.find((m) => m.country === country);
  if (!merchant) {
    await server.close();
    const have = server.sandbox.merchants.map((m) => `${m.username} (${m.country})`).join(', ') || 'none';
    throw new ConfigurationError(
      `connectSandbox({ country: '${country}' }): no simulator merchant operates in ${country} (merchants: ${have}). Add one to merchants, or ask for one of those countries.`,
    );
  }
  const client = new PaymentClient({
    username: merchant.username,
    password: merchant.password,
    token: merchant.token,
    baseUrl: server.url,
    environment: server.sandbox.environment,
    ...options.client,
  });
  return {
    client,
    token: merchant.token,
    simulated: true,
    sandbox: server.sandbox,
    server,
    merchant,
    close: () => server.close(),
  };
}

/**
 * PAYINOUT_BASE_URL is set: the merchant is the one its credentials name, so simulator merchants
 * cannot be honoured, and a country is checked against that merchant's profile.
 */
async function connectToEnvironment(
  options: ConnectSandboxOptions,
  env: Record<string, string | undefined>,
): Promise<SandboxConnection> {
  const where = `PAYINOUT_BASE_URL is set (${env[ENV_VARS.baseUrl]?.trim()}), so connectSandbox() connects to that environment as the merchant of PAYINOUT_USERNAME instead of starting the simulator`;
  if (options.merchants) {
    throw new ConfigurationError(
      `connectSandbox({ merchants }): ${where}; its merchants cannot be chosen. Unset PAYINOUT_BASE_URL (or pass env: {}) to simulate these merchants, or drop merchants.`,
    );
  }
  const client = PaymentClient.fromEnv(env, options.client ?? {});
  if (options.country) await checkCountry(client, options.country, where);
  return {
    client,
    token: options.client?.token ?? env[ENV_VARS.token]?.trim() ?? '',
    simulated: false,
    sandbox: undefined,
    server: undefined,
    merchant: undefined,
    close: async () => {},
  };
}

/** The merchant of `client` operates in `country`: its profile's currency is that country's. */
async function checkCountry(client: PaymentClient, country: CountryCode, where: string): Promise<void> {
  const { currency } = await client.merchant.getProfile();
  if (currency === COUNTRIES[country].currency) return;
  const theirs = Object.entries(COUNTRIES).find(([, c]) => c.currency === currency)?.[0];
  throw new ConfigurationError(
    `connectSandbox({ country: '${country}' }): ${where}, and that merchant operates in ${currency}${theirs ? ` (${theirs})` : ''}, not ${COUNTRIES[country].currency} (${country}). ` +
      `Export the ${country} merchant's PAYINOUT_USERNAME, PAYINOUT_PASSWORD and PAYINOUT_TOKEN (payinout sandbox lists each merchant's), or unset PAYINOUT_BASE_URL (or pass env: {}) to start the simulator in-process.`,
  );
}
