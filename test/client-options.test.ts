/**
 * Client options checked in JavaScript too: a JavaScript caller (no type checker) who writes
 * `baseURL` or `timeout` gets a ConfigurationError naming every unknown key with the closest
 * known one, at construction, before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import { ConfigurationError, PaymentClient, RequestValidationError } from '../src/index.js';
import { startLocalServer } from './helpers/local-server.js';
import { BASE_URL, CREDENTIALS } from './helpers/msw.js';

/** The ConfigurationError `new PaymentClient(options)` throws (options as a JS caller writes them). */
function refusal(options: Record<string, unknown>): ConfigurationError {
  try {
    new PaymentClient(options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error('new PaymentClient() accepted the options');
}

describe('unknown client options', () => {
  it('baseURL: names it with baseUrl, and does not also say baseUrl is missing', () => {
    const { message } = refusal({ ...CREDENTIALS, baseURL: BASE_URL });
    expect(message).toBe('baseURL: unknown option; did you mean baseUrl?');
  });

  it('timeout: 5000 is no longer ignored', () => {
    expect(refusal({ ...CREDENTIALS, baseUrl: BASE_URL, timeout: 5000 }).message).toBe(
      'timeout: unknown option; did you mean timeoutMs?',
    );
  });

  it('every unknown option at once, each with its closest known one', () => {
    const { message } = refusal({
      ...CREDENTIALS,
      baseURL: BASE_URL,
      timeout: 5000,
      max_retries: 1,
      strictResponse: true,
    });
    expect(message).toMatch(/4 configuration problems/);
    expect(message).toContain('baseURL: unknown option; did you mean baseUrl?');
    expect(message).toContain('timeout: unknown option; did you mean timeoutMs?');
    expect(message).toContain('max_retries: unknown option; did you mean maxRetries?');
    expect(message).toContain('strictResponse: unknown option; did you mean strictResponses?');
  });

  it('a key spelled like the start of an option names it: maxRetry, validate', () => {
    const { message } = refusal({ ...CREDENTIALS, baseUrl: BASE_URL, maxRetry: 1, validate: false });
    expect(message).toContain('maxRetry: unknown option; did you mean maxRetries?');
    expect(message).toContain('validate: unknown option; did you mean validateRequests?');
  });

  it('an option like none of them lists the known ones; its value is never repeated', () => {
    const { message } = refusal({ ...CREDENTIALS, baseUrl: BASE_URL, proxyAgentSecret: 'hunter2-secret' });
    expect(message).toMatch(
      /^proxyAgentSecret: unknown option; the options are username, password, token, baseUrl/,
    );
    expect(message).not.toContain('hunter2');
  });

  it('unknown options and other problems together', () => {
    const { message } = refusal({
      ...CREDENTIALS,
      password: '',
      baseUrl: BASE_URL,
      timeoutMs: -1,
      retries: 3,
    });
    expect(message).toMatch(/3 configuration problems/);
    expect(message).toContain('Missing password');
    expect(message).toContain('retries: unknown option; did you mean maxRetries?');
    expect(message).toMatch(/timeoutMs must be a number of milliseconds above 0 .*; got -1\./);
  });

  it('option values of the wrong kind are named, never shown', () => {
    const { message } = refusal({
      ...CREDENTIALS,
      baseUrl: BASE_URL,
      validateRequests: 'no',
      fetch: {},
      logger: { warn() {} },
      tracer: {},
    });
    expect(message).toContain('validateRequests must be true or false; got string.');
    expect(message).toContain('fetch must be a function; got object.');
    expect(message).toContain('logger must be an object with debug, info, warn methods; got object.');
    expect(message).toContain('tracer must be an object with startActiveSpan method; got object.');
  });

  it('every documented option is accepted, and so is fromEnv with overrides', () => {
    const client = new PaymentClient({
      ...CREDENTIALS,
      baseUrl: BASE_URL,
      environment: 'uat',
      timeoutMs: 1000,
      maxRetries: 0,
      fetch: globalThis.fetch,
      validateRequests: true,
      strictResponses: false,
      logger: console,
      appInfo: { name: 'shop' },
      webhookScheme: 'json',
      tracer: { startActiveSpan: (_name, _options, fn) => fn({} as never) as never },
    });
    expect(client.environment).toBe('uat');
    const env = {
      PAYINOUT_USERNAME: 'u',
      PAYINOUT_PASSWORD: 'p',
      PAYINOUT_TOKEN: 't',
      PAYINOUT_BASE_URL: BASE_URL,
    };
    expect(() => PaymentClient.fromEnv(env, { timeout: 1 } as never)).toThrow(/did you mean timeoutMs/);
  });
});

describe('unknown per-call options', () => {
  it('create(params, { timeout }) is refused, naming timeoutMs, and nothing is sent', async () => {
    const sent: string[] = [];
    const client = new PaymentClient({
      ...CREDENTIALS,
      baseUrl: BASE_URL,
      fetch: async (input) => {
        sent.push(String(input));
        return new Response('{}');
      },
    });
    const error = await client.merchant
      .getBalance({ timeout: 5000, retries: 1 } as never)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues).toEqual([
      { path: 'timeout', message: 'unknown option; did you mean timeoutMs?' },
      { path: 'retries', message: 'unknown option; did you mean maxRetries?' },
    ]);
    expect(sent).toEqual([]);
  });
});

describe('baseUrl as pasted', () => {
  it('surrounding blanks are ignored: the requests reach the service', async ({ onTestFinished }) => {
    const paths: string[] = [];
    const local = await startLocalServer((request, response) => {
      paths.push(request.url ?? '');
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            code: '01',
            status: 'SUCCESS',
            message: '',
            data: { balance: 10, currency: 'COP' },
          }),
        );
      });
    });
    onTestFinished(() => local.close());
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: ` ${local.baseUrl}\n`, maxRetries: 0 });
    expect(client.baseUrl).toBe(local.baseUrl);
    expect((await client.merchant.getBalance()).balance).toBe(10);
    expect(paths).toEqual(['/api/v1/merchant/balance']);
  });

  it('a line break inside the address is refused at construction', () => {
    expect(refusal({ ...CREDENTIALS, baseUrl: 'https://api.payinout.test/\nroot' }).message).toMatch(
      /baseUrl holds a tab or line break/,
    );
  });
});

describe('credentials as read from a file', () => {
  it('a token with its trailing newline is refused at construction, its value never shown', () => {
    const { message } = refusal({ ...CREDENTIALS, token: 'tok-secret\n', baseUrl: BASE_URL });
    expect(message).toMatch(/^token holds a line break or another control character/);
    expect(message).not.toContain('tok-secret');
  });

  it('an appInfo name with a line break (it goes into User-Agent) is refused at construction', () => {
    const { message } = refusal({ ...CREDENTIALS, baseUrl: BASE_URL, appInfo: { name: 'shop\nX-Evil: 1' } });
    expect(message).toBe(
      'appInfo must be { name, version? } with text free of line breaks and control characters; got object.',
    );
  });
});
