import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, ConnectionError, RateLimitError, ServerError } from '../../src/index.js';
import {
  answer,
  BASE_URL,
  BASIC,
  CREDENTIALS,
  makeClient,
  ok,
  recorded,
  server,
  useMsw,
} from '../helpers/msw.js';

useMsw();
const balance = { currency: 'COP', balance: 1234567.89, balance_formatted: 'COP 1.234.567,89' };

describe('transport: what goes over the wire', () => {
  it('sends HTTP Basic, Token-Top, JSON content type and a User-Agent with appInfo', async () => {
    answer('get', '/api/v1/merchant/balance', () => ok(balance));
    await makeClient({ appInfo: { name: 'acme-shop', version: '2.3.0' } }).merchant.getBalance();
    const { headers } = recorded[0]!;
    expect(headers.get('authorization')).toBe(BASIC);
    expect(headers.get('token-top')).toBe(CREDENTIALS.token);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('user-agent')).toMatch(
      /^payinout\/\d+\.\d+\.\d+ node\/v\d+\.\d+\.\d+ acme-shop\/2\.3\.0$/,
    );
  });

  it.each([BASE_URL, `${BASE_URL}/`])('joins paths to baseUrl %s, keeping its prefix', async (baseUrl) => {
    answer('get', '/api/v1/merchant/balance', () => ok(balance));
    await makeClient({ baseUrl }).merchant.getBalance();
    expect(recorded[0]!.url.href).toBe(`${BASE_URL}/api/v1/merchant/balance`);
  });

  it('applies per-request headers to that call only', async () => {
    answer('get', '/api/v1/merchant/balance', () => ok(balance));
    const client = makeClient();
    await client.merchant.getBalance({ headers: { 'x-correlation-id': 'abc-1' } });
    await client.merchant.getBalance();
    expect(recorded[0]!.headers.get('x-correlation-id')).toBe('abc-1');
    expect(recorded[1]!.headers.get('x-correlation-id')).toBeNull();
  });

  it('passes requests through a custom fetch', async () => {
    const seen: string[] = [];
    const customFetch: typeof fetch = async (input) => {
      seen.push(input instanceof Request ? input.url : String(input));
      return Response.json({ code: '01', status: 'SUCCESS', message: '', data: balance });
    };
    const result = await makeClient({ fetch: customFetch }).merchant.getBalance();
    expect(seen).toEqual([`${BASE_URL}/api/v1/merchant/balance`]);
    expect(result.balance).toBe(1234567.89);
  });

  it('exposes status, headers, message and attempts as a non-enumerable lastResponse', async () => {
    answer('get', '/api/v1/merchant/balance', () =>
      ok(balance, 'Consulta exitosa', { headers: { 'x-request-id': 'req-9' } }),
    );
    const result = await makeClient().merchant.getBalance();
    expect(result.lastResponse).toMatchObject({ status: 200, message: 'Consulta exitosa', attempts: 1 });
    expect(result.lastResponse.headers.get('x-request-id')).toBe('req-9');
    expect(Object.keys(result)).not.toContain('lastResponse');
    expect(JSON.parse(JSON.stringify(result))).toEqual(balance);
  });

  it('never follows a redirect: credentials stay on the configured origin', async () => {
    let reachedOther = false;
    server.use(
      http.get('https://elsewhere.test/steal', () => {
        reachedOther = true;
        return ok(balance);
      }),
    );
    answer(
      'get',
      '/api/v1/merchant/balance',
      () => new HttpResponse(null, { status: 302, headers: { location: 'https://elsewhere.test/steal' } }),
    );
    const error = await makeClient()
      .merchant.getBalance()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(302);
    expect(error.message).toMatch(/never follows redirects/);
    expect(reachedOther).toBe(false);
  });
});

describe('transport: retries of safe calls', () => {
  it('retries a GET after 503 and 429 (Retry-After: 0) and reports the attempts', async () => {
    const answers = [
      () => HttpResponse.json({ code: '00', status: 'ERROR' }, { status: 503 }),
      () => HttpResponse.json({}, { status: 429, headers: { 'retry-after': '0' } }),
      () => ok(balance),
    ];
    answer('get', '/api/v1/merchant/balance', () => answers.shift()!());
    const result = await makeClient({ maxRetries: 2 }).merchant.getBalance({ maxRetries: 2 });
    expect(recorded).toHaveLength(3);
    expect(result.lastResponse.attempts).toBe(3);
  });

  it('gives up after maxRetries with the last typed error', async () => {
    answer('get', '/api/v1/merchant/me', () =>
      HttpResponse.json({}, { status: 503, headers: { 'retry-after': '0' } }),
    );
    const error = await makeClient({ maxRetries: 1 })
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error.attempts).toBe(2);
    expect(recorded).toHaveLength(2);
  });

  it('does not retry a 4xx answer', async () => {
    answer('get', '/api/v1/merchant/me', () =>
      HttpResponse.json({ code: '00', status: 'ERROR' }, { status: 400 }),
    );
    await expect(makeClient({ maxRetries: 2 }).merchant.getProfile()).rejects.toBeInstanceOf(ApiError);
    expect(recorded).toHaveLength(1);
  });

  it('does not sleep through a Retry-After above 60 s: surfaces RateLimitError at once', async () => {
    answer('get', '/api/v1/merchant/me', () =>
      HttpResponse.json({ error: 'RATE_LIMITED' }, { status: 429, headers: { 'retry-after': '120' } }),
    );
    const error = await makeClient({ maxRetries: 2 })
      .merchant.getProfile()
      .catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error.headers['retry-after']).toBe('120');
    expect(recorded).toHaveLength(1);
  });

  it('retries a network failure of a GET, then reports ConnectionError', async () => {
    answer('get', '/api/v1/merchant/me', () => HttpResponse.error());
    const error = await makeClient({ maxRetries: 1 })
      .merchant.getProfile({ timeoutMs: 5_000 })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.attempts).toBe(2);
    expect(error.message).toMatch(/GET \/api\/v1\/merchant\/me got no answer/);
  });
});

describe('transport: logging', () => {
  it('logs one debug line per attempt with method, path, status, duration and attempt', async () => {
    const lines: { message: string; fields: Record<string, unknown> | undefined }[] = [];
    const logger = {
      debug: (message: string, fields?: Record<string, unknown>) => lines.push({ message, fields }),
      info: () => {},
      warn: () => {},
      error: () => {},
    };
    const answers = [
      () => HttpResponse.json({}, { status: 502, headers: { 'retry-after': '0' } }),
      () => ok(balance),
    ];
    answer('get', '/api/v1/merchant/balance', () => answers.shift()!());
    await makeClient({ logger, maxRetries: 1 }).merchant.getBalance();
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.fields)).toMatchObject([
      { method: 'GET', path: '/api/v1/merchant/balance', status: 502, attempt: 1 },
      { method: 'GET', path: '/api/v1/merchant/balance', status: 200, attempt: 2 },
    ]);
    expect(typeof lines[0]!.fields!.durationMs).toBe('number');
    const text = JSON.stringify(lines);
    for (const secret of [CREDENTIALS.password, CREDENTIALS.token, BASIC.slice(6)])
      expect(text).not.toContain(secret);
  });
});
