/**
 * Secrets and PII that come back re-encoded or across a cut, through the HTTP boundary (msw):
 * every view of the error (message, JSON, inspect, stack, body, serviceMessage) stays clean.
 */
import { inspect } from 'node:util';
import fc from 'fast-check';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, ConfigurationError, PaymentClient, ServerError } from '../../src/index.js';
import { customerCO, payinCO } from '../helpers/fixtures.js';
import { answer, BASE_URL, CREDENTIALS, makeClient, useMsw } from '../helpers/msw.js';

useMsw();

function views(error: unknown): string {
  const e = error as Error & { body?: unknown; serviceMessage?: unknown };
  return [
    e.message,
    e.stack,
    JSON.stringify(e),
    inspect(e, { depth: 10 }),
    JSON.stringify(e.body),
    String(e.serviceMessage),
  ].join('\n');
}

async function refusedWith(message: string): Promise<unknown> {
  answer('post', '/api/v2/payin', () =>
    HttpResponse.json(
      { code: '00', status: 'ERROR', error: 'VALIDATION_ERROR', message, detail: message },
      { status: 422 },
    ),
  );
  return makeClient()
    .payin.create(payinCO)
    .catch((error: unknown) => error);
}

/** Variants a bank or gateway echoes the customer's fields in. */
const ECHOES: Array<[string, string, RegExp]> = [
  ['upper-cased name', 'Cliente ANA PÉREZ no autorizado', /P[ÉE]REZ/i],
  ['name without accents, upper-cased', 'titular ANA PEREZ bloqueado', /PEREZ/i],
  ['JSON \\u escape of the accent', 'titular Ana P\\u00e9rez', /P\\u00e9rez/i],
  ['JSON \\u escape, upper-case', 'titular P\\u00c9REZ', /P\\u00c9REZ/i],
  ['form encoding', 'name=Ana+P%C3%A9rez&doc=1020304050', /P%C3%A9rez|1020304050/i],
  [
    'URL encoding with %20 and %40',
    'to=ana.perez%40example.com&n=Ana%20P%C3%A9rez',
    /ana\.perez|P%C3%A9rez/i,
  ],
  ['surname inside a longer word', 'beneficiarioPEREZSAS rechazado', /PEREZ/i],
  ['document with separators', 'documento 1.020.304.050 invalido', /1\.020\.304\.050/],
  ['phone with dashes', 'telefono 300-123-4567', /300-123-4567/],
  ['e-mail upper-cased', 'correo ANA.PEREZ@EXAMPLE.COM', /ANA\.PEREZ/i],
];

describe('PII scrubbing survives re-encoding', () => {
  for (const [name, message, leak] of ECHOES) {
    it(name, async () => {
      const error = await refusedWith(message);
      expect(error).toBeInstanceOf(ApiError);
      const text = views(error);
      expect(text).not.toMatch(leak);
      expect(text).toContain('[REDACTED]');
    });
  }

  it('keeps what is not personal readable (the e-mail domain, the error identifier)', async () => {
    const error = await refusedWith('correo ana.perez@example.com invalido en example.com');
    expect(views(error)).toMatch(/en example\.com/);
    expect(views(error)).toMatch(/VALIDATION_ERROR/);
  });
});

describe('redact before cut', () => {
  it('a secret straddling the 2,000-character cut of a text body leaks no prefix', async () => {
    const secret = CREDENTIALS.password;
    for (const offset of [1995, 1998, 1999]) {
      const page = `${'x'.repeat(offset)}${secret}${'y'.repeat(50)}`;
      answer(
        'get',
        '/api/v1/merchant/balance',
        () => new HttpResponse(page, { status: 502, headers: { 'content-type': 'text/html' } }),
      );
      const error = await makeClient()
        .merchant.getBalance()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ServerError);
      const body = String((error as ServerError).body);
      expect(body.length).toBeLessThanOrEqual(2000);
      expect(body).not.toContain(secret.slice(0, 4));
      expect(views(error)).not.toContain(secret.slice(0, 4));
    }
  });

  it('a customer name straddling the cut is scrubbed in full first', async () => {
    const page = `${'x'.repeat(1996)}${customerCO.full_name.toUpperCase()} ${'y'.repeat(20)}`;
    answer(
      'post',
      '/api/v2/payin',
      () => new HttpResponse(page, { status: 400, headers: { 'content-type': 'text/html' } }),
    );
    const error = await makeClient()
      .payin.create(payinCO)
      .catch((e: unknown) => e);
    expect(String((error as ApiError).body)).not.toMatch(/ANA P/);
  });
});

describe('configuration errors never echo a secret and name every problem', () => {
  const password = 'hunter2-Very-Secret';
  const malformed = [
    `https://user:${password}@exa mple.com`,
    `https://user:${password}@`,
    `user:${password}@api.example.com`,
    `https:/user:${password}@api.example.com/api/v2`,
    `https://user:${password}@api.example.com`,
  ];
  it.each(malformed)('refuses %s without the password in any view', (baseUrl) => {
    let error: unknown;
    try {
      new PaymentClient({ ...CREDENTIALS, baseUrl });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(views(error)).not.toContain(password);
    expect(views(error)).not.toContain(password.slice(0, 7));
    expect((error as Error).message).toMatch(/must not embed credentials/);
  });

  it('never echoes a password, whatever the scheme, host or characters around it', () => {
    const prefix = fc.constantFrom(
      'https://',
      'http://',
      'ht!tp://',
      'https:/',
      'https:\\\\',
      '//',
      '',
      'https://x/',
    );
    const host = fc.constantFrom('api.example.com', '', 'exa mple.com', '127.0.0.1:4010', '[::1]');
    const suffix = fc.constantFrom('', '/api/v2', '/', '?q=1', '#top');
    // Passwords a merchant may really hold: letters and digits around URL-significant characters.
    const secret = fc
      .stringMatching(/^[A-Za-z0-9!$%&*+,;=/#?\\~:-]{4,16}$/)
      .map((middle) => `Pw9${middle}Zq7`);
    fc.assert(
      fc.property(prefix, secret, host, suffix, (before, password, where, after) => {
        let error: unknown;
        try {
          new PaymentClient({ ...CREDENTIALS, baseUrl: `${before}user:${password}@${where}${after}` });
        } catch (caught) {
          error = caught;
        }
        expect(error).toBeInstanceOf(ConfigurationError);
        expect(views(error)).not.toContain(password);
      }),
      { numRuns: 2_000 },
    );
  });

  it('reports every problem at once', () => {
    let error: unknown;
    try {
      new PaymentClient({
        username: '',
        password: CREDENTIALS.password,
        token: CREDENTIALS.token,
        baseUrl: `http://u:${password}@api.example.com/api/v1`,
        timeoutMs: 2 ** 31,
        maxRetries: -1,
      });
    } catch (caught) {
      error = caught;
    }
    const message = (error as Error).message;
    expect(message).toMatch(/6 configuration problems/);
    for (const part of [
      /Missing username/,
      /embed credentials/,
      /https/,
      /ends in \/api\/v1/,
      /timeoutMs/,
      /maxRetries/,
    ])
      expect(message).toMatch(part);
    expect(views(error)).not.toContain(password);
  });

  it('fromEnv with a credential-bearing PAYINOUT_BASE_URL does not echo it', () => {
    const env = {
      PAYINOUT_USERNAME: 'u',
      PAYINOUT_PASSWORD: 'p',
      PAYINOUT_TOKEN: 't',
      PAYINOUT_BASE_URL: `https://admin:${password}@api.example.com`,
    };
    expect(() => PaymentClient.fromEnv(env)).toThrow(ConfigurationError);
    try {
      PaymentClient.fromEnv(env);
    } catch (error) {
      expect(views(error)).not.toContain(password);
    }
  });

  it('the simulator address stays accepted', () => {
    expect(new PaymentClient({ ...CREDENTIALS, baseUrl: BASE_URL }).baseUrl).toBe(BASE_URL);
  });
});
