import { baseUrlProblems } from './base-url.js';
import { ConfigurationError } from './core/errors.js';
import {
  BOOLEAN,
  FUNCTION,
  OPTION_ALIASES,
  type OptionProblem,
  optionProblems,
  RETRIES,
  TIMER_MS,
  withMethods,
} from './core/options.js';
import { PLATFORM_SENDER, type Sender } from './core/sender.js';
import type { Tracer } from './core/trace.js';
import { type Logger, Transport } from './core/transport.js';
import { MerchantResource } from './resources/merchant.js';
import { PayInResource } from './resources/payin.js';
import { PayOutResource } from './resources/payout.js';
import { SandboxResource } from './resources/sandbox.js';
import { TransactionsResource } from './resources/transactions.js';
import { WebhooksResource } from './resources/webhooks.js';
import type { SignatureScheme } from './webhooks/signature.js';

/** Which service environment a client talks to. 'production' disables `client.sandbox`. */
export type Environment = 'staging' | 'uat' | 'production';
const ENVIRONMENTS: readonly Environment[] = ['staging', 'uat', 'production'];

/** Options of `new PaymentClient(options)`; see also {@link PaymentClient.fromEnv}. */
export interface PaymentClientOptions {
  /** HTTP Basic user, issued by the service's support. */
  username: string;
  /** HTTP Basic password. */
  password: string;
  /** Merchant token, sent as `Token-Top`. */
  token: string;
  /** The environment's root address (it includes the API prefix); paths such as /api/v2/payin are joined to it. */
  baseUrl: string;
  /** Default 'staging'. 'production' disables the sandbox module. */
  environment?: Environment;
  /**
   * Per attempt, headers and body included, in ms: above 0 and at most 2,147,483,647 (the longest a
   * timer can wait); anything else is a ConfigurationError. Default 30,000.
   */
  timeoutMs?: number;
  /**
   * How often a failed call is repeated: safe calls as they are, creates only after their
   * reference was looked up and not found (https://github.com/payinout/payinout/blob/main/docs/reliability.md). A whole number; 0 means exactly
   * one attempt. Default 2.
   */
  maxRetries?: number;
  /**
   * A `fetch` to send every request with (a proxy or undici agent, a test double). Without it,
   * Node sends over `node:http` keep-alive agents (which msw intercepts too) and other
   * runtimes over their global `fetch`.
   */
  fetch?: typeof fetch;
  /** Client-side zod checks before sending. Default true. */
  validateRequests?: boolean;
  /** Fail with ResponseValidationError on responses that drift from the schemas. Default false. */
  strictResponses?: boolean;
  /** Receives one debug line per attempt; secrets and PII are never passed to it. */
  logger?: Logger;
  /** Appended to User-Agent, e.g. { name: 'acme-shop', version: '2.3.0' }. */
  appInfo?: { name: string; version?: string };
  /** How `client.webhooks.verify` checks x-trx-signature; default 'json' (https://github.com/payinout/payinout/blob/main/docs/webhooks.md). */
  webhookScheme?: SignatureScheme;
  /**
   * An OpenTelemetry `Tracer` (`trace.getTracer('payinout')`): every call becomes a CLIENT span
   * with an event per attempt, a reconciliation lookup a child span of its create, `createMany`
   * a span with one child per item. Typed structurally: payinout depends on no OpenTelemetry
   * package. Without it nothing is traced and nothing is paid for (https://github.com/payinout/payinout/blob/main/docs/observability.md).
   */
  tracer?: Tracer;
}

/** Every option `new PaymentClient()` knows; any other key is a ConfigurationError naming it. */
const KNOWN_OPTIONS = [
  'username',
  'password',
  'token',
  'baseUrl',
  'environment',
  'timeoutMs',
  'maxRetries',
  'fetch',
  'validateRequests',
  'strictResponses',
  'logger',
  'appInfo',
  'webhookScheme',
  'tracer',
] as const satisfies readonly (keyof PaymentClientOptions)[];
// Compile-time: an option added to the interface but not to the list above fails here.
const everyOptionKnown: Exclude<keyof PaymentClientOptions, (typeof KNOWN_OPTIONS)[number]> extends never
  ? true
  : never = true;
void everyOptionKnown;

/** Environment variables read by `PaymentClient.fromEnv()`. */
export const ENV_VARS = {
  username: 'PAYINOUT_USERNAME',
  password: 'PAYINOUT_PASSWORD',
  token: 'PAYINOUT_TOKEN',
  baseUrl: 'PAYINOUT_BASE_URL',
  environment: 'PAYINOUT_ENVIRONMENT',
} as const;

/**
 * The payinout client. One instance per set of credentials; it is immutable and safe to share.
 * Every method returns the envelope's `data`, parsed and typed, with the call's HTTP status,
 * headers and message as the non-enumerable `lastResponse`; every failure is a
 * {@link PayinoutError}. Guide: https://github.com/payinout/payinout/blob/main/docs/getting-started.md.
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
  /** Webhook verification with this client's token: `verify`, `createHandler`. */
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
      logger: options.logger,
      appInfo: options.appInfo,
      tracer: options.tracer,
    });
    this.baseUrl = baseUrl;
    this.environment = environment;
    this.payin = new PayInResource(transport);
    this.payout = new PayOutResource(transport);
    this.merchant = new MerchantResource(transport);
    this.transactions = new TransactionsResource(transport);
    this.sandbox = new SandboxResource(transport, {
      production: environment === 'production',
      validateRequests,
    });
    this.webhooks = new WebhooksResource({
      token: options.token,
      scheme: options.webhookScheme,
      tracer: options.tracer,
    });
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

/**
 * Fails fast, before any request, on what would otherwise fail on every call (or be silently
 * ignored, as a misspelt `timeout` would), naming every problem at once. A message never repeats
 * a value that may hold a secret: baseUrl is shown without its user:password@ part, credentials
 * are never shown.
 */
function checkOptions(options: PaymentClientOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new ConfigurationError('new PaymentClient(options) needs { username, password, token, baseUrl }.');
  }
  const unknown = optionProblems(options, KNOWN_OPTIONS, OPTION_RULES, OPTION_ALIASES);
  // `baseURL` says "did you mean baseUrl?"; a second line saying baseUrl is missing would only repeat it.
  const meant = new Set(unknown.map((problem) => problem.suggestion));
  const problems = [
    ...credentialProblems(options)
      .filter((problem) => !meant.has(problem.key))
      .map((p) => p.message),
    ...unknown.map(describeProblem),
    ...baseUrlProblems(options.baseUrl),
  ];
  if (options.environment !== undefined && !ENVIRONMENTS.includes(options.environment)) {
    problems.push(
      `environment must be one of ${ENVIRONMENTS.join(', ')}; got ${shownValue(options.environment)}.`,
    );
  }
  if (problems.length === 1) throw new ConfigurationError(problems[0] as string);
  if (problems.length > 1) {
    throw new ConfigurationError(
      `new PaymentClient() has ${problems.length} configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

/** The value rules of the client's options (src/core/options.ts), beyond credentials and baseUrl. */
const OPTION_RULES = {
  timeoutMs: TIMER_MS,
  maxRetries: RETRIES,
  fetch: FUNCTION,
  validateRequests: BOOLEAN,
  strictResponses: BOOLEAN,
  logger: withMethods('debug', 'info', 'warn'),
  tracer: withMethods('startActiveSpan'),
  appInfo: {
    // It goes into the User-Agent header: a line break there fails every call as a network error.
    valid: (value: unknown) => {
      const { name, version } = (value ?? {}) as { name?: unknown; version?: unknown };
      const text = (v: unknown) => typeof v === 'string' && !CONTROL.test(v);
      return typeof value === 'object' && text(name) && (version === undefined || text(version));
    },
    expects: '{ name, version? } with text free of line breaks and control characters',
  },
};

/** The URL parser drops a tab or line break inside the address (so its checks pass); the request would not. */
function baseUrlBreakProblems(baseUrl: unknown): { key: string; message: string }[] {
  if (typeof baseUrl !== 'string' || !/[\t\n\r]/.test(baseUrl.trim())) return [];
  return [
    {
      key: 'baseUrl',
      message: 'baseUrl holds a tab or line break; remove it (check how the address was pasted or read).',
    },
  ];
}

/**
 * A credential with a line break or another control character (a token read from a file with its
 * trailing newline) cannot be sent as a header: every call would fail as if the network had, after
 * its retries. Refused here instead; the value is never shown.
 */
function controlCharacterProblems(options: PaymentClientOptions): { key: string; message: string }[] {
  return (['username', 'password', 'token'] as const)
    .filter((key) => {
      const value = options[key];
      return typeof value === 'string' && value.trim() !== '' && CONTROL.test(value);
    })
    .map((key) => ({
      key,
      message: `${key} holds a line break or another control character (often the trailing newline of a file it was read from); remove it. Its value is not shown here.`,
    }));
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

/** "baseURL: unknown option; did you mean baseUrl?", "timeoutMs must be …; got -1." */
function describeProblem(problem: OptionProblem): string {
  return problem.suggestion !== undefined || problem.message.startsWith('unknown option')
    ? `${problem.key}: ${problem.message}`
    : `${problem.key} ${problem.message}.`;
}

function credentialProblems(options: PaymentClientOptions): { key: string; message: string }[] {
  const missing: { key: string; message: string }[] = (['username', 'password', 'token', 'baseUrl'] as const)
    .filter((key) => typeof options[key] !== 'string' || options[key].trim() === '')
    .map((key) => ({
      key,
      message: `Missing ${key}: pass it to new PaymentClient({ ${key} }) or set ${ENV_VARS[key]} and use PaymentClient.fromEnv().`,
    }));
  return [...missing, ...controlCharacterProblems(options), ...baseUrlBreakProblems(options.baseUrl)];
}

/** A non-secret option value for a message (numbers, enums): short, never an object dump. */
function shownValue(value: unknown): string {
  return typeof value === 'string'
    ? `'${value.slice(0, 40)}'`
    : typeof value === 'number'
      ? String(value)
      : typeof value;
}
