/**
 * `PaymentClient`: one set of credentials, one transport, and the resources over it. Its options
 * and their check live in client-options.ts.
 */
import { checkOptions, ENV_VARS, type Environment, type PaymentClientOptions } from './client-options.js';
import { dispatcherOf } from './core/dispatch.js';
import { ConfigurationError } from './core/errors.js';
import { attemptLog, containedLogger } from './core/logger.js';
import { PLATFORM_SENDER, type Sender } from './core/sender.js';
import { Transport } from './core/transport.js';
import { MerchantResource } from './resources/merchant.js';
import { PayInResource } from './resources/payin.js';
import { PayOutResource } from './resources/payout.js';
import { SandboxResource } from './resources/sandbox.js';
import { TransactionsResource } from './resources/transactions.js';
import { WebhooksResource } from './resources/webhooks.js';
import { type TracedEvents, tracingObserver } from './tracing/index.js';
import { lendSigner } from './webhooks/client-signer.js';

/**
 * The payinout client. One instance per set of credentials; it is immutable and safe to share.
 * Every method returns the envelope's `data`, parsed and typed, with the call's HTTP status,
 * headers and message as the non-enumerable `lastResponse`; every failure is a
 * {@link PayinoutError}. Guide: node_modules/payinout/docs/getting-started.md or https://github.com/payinout/payinout/blob/main/docs/getting-started.md.
 * @example
 * const client = new PaymentClient({ username, password, token, baseUrl: 'https://…' });
 * const balance = await client.merchant.getBalance();
 * @example
 * const client = PaymentClient.fromEnv(); // PAYINOUT_USERNAME, _PASSWORD, _TOKEN, _BASE_URL
 * const payin = await client.payin.create({ reference: 'order-1001', amount: 150_000, currency: 'COP',
 *   country: 'CO', payment_method: 'BREB', description: 'Order 1001', customer_data });
 * console.log(payin.ticket, payin.payment_information, payin.lastResponse.status);
 */
export class PaymentClient {
  /** PayIn collections: `create`, `createLegacy` (deprecated), `listPseBanks`. */
  readonly payin: PayInResource;
  /** PayOut disbursements: `create`. */
  readonly payout: PayOutResource;
  /** The authenticated merchant: `getProfile`, `getBalance`. */
  readonly merchant: MerchantResource;
  /** Transaction lookup: `get`, `waitForFinalStatus`. */
  readonly transactions: TransactionsResource;
  /** Sandbox confirm (staging and UAT): `confirmPayIn`, `confirmPayOut`. */
  readonly sandbox: SandboxResource;
  /**
   * Webhook verification with this client's token: `verify`. The receiver is
   * `createWebhookHandler({ client, onEvent })`.
   */
  readonly webhooks: WebhooksResource;
  /** The environment's root address the client was built with. */
  readonly baseUrl: string;
  /** 'staging' unless configured otherwise. */
  readonly environment: Environment;

  /**
   * @internal The sender of clients built without a `fetch` option: none here (they send with
   * `fetch`); the Node entry's PaymentClient supplies `node:http` (src/node/client.ts).
   */
  static readonly [PLATFORM_SENDER]: Sender | undefined = undefined;

  /** @throws ConfigurationError on missing credentials, a non-https `baseUrl` (except loopback) or bad numbers. */
  constructor(options: PaymentClientOptions) {
    checkOptions(options);
    // Surrounding blanks (a .env line, a pasted address) are not part of the address: the URL
    // parser that checked it ignores them, so the requests must too.
    const baseUrl = options.baseUrl.trim();
    const environment = options.environment ?? 'staging';
    const validateRequests = options.validateRequests ?? true;
    // What surrounds the client (its logger, its tracer) may cost a line or a span, never a
    // result: the logger's lines are contained, and both observe calls through one dispatcher.
    const logger = options.logger && containedLogger(options.logger);
    const observers = dispatcherOf<TracedEvents>([
      logger && attemptLog(logger),
      options.tracer && tracingObserver(options.tracer, baseUrl),
    ]);
    const transport = new Transport({
      baseUrl,
      username: options.username,
      password: options.password,
      token: options.token,
      timeoutMs: options.timeoutMs ?? 30_000,
      maxRetries: options.maxRetries ?? 2,
      validateRequests,
      strictResponses: options.strictResponses ?? false,
      fetch: options.fetch,
      sender: options.fetch ? undefined : new.target[PLATFORM_SENDER],
      logger,
      appInfo: options.appInfo,
      observers,
    });
    this.baseUrl = baseUrl;
    this.environment = environment;
    this.payin = new PayInResource(transport);
    this.payout = new PayOutResource(transport, observers);
    this.merchant = new MerchantResource(transport);
    this.transactions = new TransactionsResource(transport);
    this.sandbox = new SandboxResource(transport, {
      production: environment === 'production',
      validateRequests,
    });
    this.webhooks = new WebhooksResource({ token: options.token, scheme: options.webhookScheme });
    // For createWebhookHandler({ client }): held beside the client, never on it (client-signer.ts).
    lendSigner(this, { token: options.token, scheme: options.webhookScheme, tracer: options.tracer });
    Object.freeze(this);
  }

  /**
   * Builds a client from PAYINOUT_USERNAME, PAYINOUT_PASSWORD, PAYINOUT_TOKEN, PAYINOUT_BASE_URL
   * and (optional) PAYINOUT_ENVIRONMENT; `overrides` win over the variables.
   * @param env where to read the variables; default `process.env`
   * @throws ConfigurationError naming every missing variable
   * @example
   * const client = PaymentClient.fromEnv();
   * const ci = PaymentClient.fromEnv(process.env, { strictResponses: true, maxRetries: 0 });
   */
  static fromEnv(
    env: Record<string, string | undefined> = typeof process === 'undefined' ? {} : process.env,
    overrides: Partial<PaymentClientOptions> = {},
  ): PaymentClient {
    const read = (key: keyof typeof ENV_VARS) => {
      const value = env[ENV_VARS[key]]?.trim();
      return value === '' ? undefined : value;
    };
    const missing = (['username', 'password', 'token', 'baseUrl'] as const).filter(
      (key) => overrides[key] === undefined && read(key) === undefined,
    );
    if (missing.length) {
      const names = missing.map((key) => ENV_VARS[key]).join(', ');
      throw new ConfigurationError(
        `Missing environment variable${missing.length > 1 ? 's' : ''} ${names}. Set ${names} (credentials are issued by the service's support), or run against the local simulator: npx payinout sandbox.`,
      );
    }
    const environment = read('environment');
    // `this`: the Node entry's PaymentClient builds its own kind (with its sender).
    return new this({
      username: read('username')!,
      password: read('password')!,
      token: read('token')!,
      baseUrl: read('baseUrl')!,
      ...(environment ? { environment: environment.toLowerCase() as Environment } : {}),
      ...overrides,
    });
  }

  /** Safe to log: no credentials. */
  toJSON(): Record<string, string> {
    return { baseUrl: this.baseUrl, environment: this.environment };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `PaymentClient { baseUrl: '${this.baseUrl}', environment: '${this.environment}' }`;
  }
}
