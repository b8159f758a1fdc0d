/**
 * A client's options: what `new PaymentClient()` and `PaymentClient.fromEnv()` take, the
 * environment variables fromEnv reads, and the check that refuses a wrong option before any
 * request (every problem at once, never a secret value).
 */
import { baseUrlProblems } from './base-url.js';
import { ConfigurationError } from './core/errors.js';
import {
  BOOLEAN,
  FUNCTION,
  OPTION_ALIASES,
  type OptionProblem,
  oneOf,
  optionProblems,
  problemLine,
  RETRIES,
  TIMER_MS,
  withMethods,
} from './core/options.js';
import type { Logger } from './core/types.js';
import type { Tracer } from './tracing/tracer.js';
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
   * reference was looked up and not found (node_modules/payinout/docs/reliability.md or https://github.com/payinout/payinout/blob/main/docs/reliability.md). A whole number; 0 means exactly
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
  /** How `client.webhooks.verify` and `createWebhookHandler({ client })` check x-trx-signature; default 'json' (node_modules/payinout/docs/webhooks.md or https://github.com/payinout/payinout/blob/main/docs/webhooks.md). */
  webhookScheme?: SignatureScheme;
  /**
   * An OpenTelemetry `Tracer` (`trace.getTracer('payinout')`): every call becomes a CLIENT span
   * with an event per attempt, a reconciliation lookup a child span of its create, `createMany`
   * a span with one child per item. Typed structurally: payinout depends on no OpenTelemetry
   * package. Without it nothing is traced and nothing is paid for (node_modules/payinout/docs/observability.md or https://github.com/payinout/payinout/blob/main/docs/observability.md).
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
 * Fails fast, before any request, on what would otherwise fail on every call (or be silently
 * ignored, as a misspelt `timeout` would), naming every problem at once. A message never repeats
 * a value that may hold a secret: baseUrl is shown without its user:password@ part, credentials
 * are never shown.
 */
export function checkOptions(options: PaymentClientOptions): void {
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
  if (problems.length === 1) throw new ConfigurationError(problems[0] as string);
  if (problems.length > 1) {
    throw new ConfigurationError(
      `new PaymentClient() has ${problems.length} configuration problems:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
}

/** The value rules of the client's options (src/core/options.ts), beyond credentials and baseUrl. */
const OPTION_RULES = {
  environment: oneOf(ENVIRONMENTS),
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
  const line = problemLine(problem);
  return problem.message.startsWith('unknown option') ? line : `${line}.`;
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
