/**
 * `connectSandbox()`: one line for examples and merchants' CI suites — the environment named by
 * PAYINOUT_* variables when PAYINOUT_BASE_URL is set (staging, UAT), otherwise the local
 * simulator started in-process.
 */
import { PaymentClient } from '../client.js';
import { ENV_VARS, type PaymentClientOptions } from '../client-options.js';
import type { CountryCode } from '../schemas/catalog.js';
import type { Sandbox } from './sandbox.js';
import { type SandboxServer, type SandboxServerOptions, startSandboxServer } from './server.js';
import type { SandboxMerchant } from './types.js';

/** Options of {@link connectSandbox}; the simulator's options apply when it is started. */
export interface ConnectSandboxOptions extends SandboxServerOptions {
  /** Variables to read; default process.env. */
  env?: Record<string, string | undefined>;
  /** The simulator's merchant to use (its country); default 'CO'. Ignored against a real environment. */
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
  if (env[ENV_VARS.baseUrl]?.trim()) {
    const client = PaymentClient.fromEnv(env, options.client ?? {});
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
  const server = await startSandboxServer(options);
  const country = options.country ?? 'CO';
  const merchant = server.sandbox.merchants.find((m) => m.country === country) ?? server.sandbox.merchants[0];
  if (!merchant)
    throw new Error('The simulator has no merchant; pass merchants or omit them for the demo set.');
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
