/** Transport security: https only (loopback excepted), and no redirect is ever followed. */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError, ConfigurationError, ConnectionError, PaymentClient } from '../../src/index.js';
import { nextReference, payinParams, settle } from './methods.js';
import { CREDENTIALS, startFaultServer } from './server.js';

const make = (baseUrl: string) => new PaymentClient({ ...CREDENTIALS, baseUrl });

describe('https', () => {
  it.each(['http://api.example.com/root', 'http://10.0.0.7/root', 'ftp://api.example.com'])(
    'refuses %s',
    (baseUrl) => {
      expect(() => make(baseUrl)).toThrow(ConfigurationError);
      expect(() => make(baseUrl)).toThrow(/must use https/);
    },
  );

  it.each([
    'https://api.example.com/root',
    'http://localhost:4010',
    'http://127.0.0.1:4010/root',
    'http://[::1]:4010',
  ])('accepts %s', (baseUrl) => {
    expect(make(baseUrl).baseUrl).toBe(baseUrl);
  });

  it('refuses credentials embedded in baseUrl without repeating them', () => {
    let error: unknown;
    try {
      make('https://someone:hunter2-secret@api.example.com');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(String((error as Error).message)).not.toContain('hunter2-secret');
  });
});

describe('redirects are never followed', () => {
  it('a 302 to another origin: ApiError, and the other origin receives nothing', async ({
    onTestFinished,
  }) => {
    const [service, elsewhere] = await Promise.all([startFaultServer(), startFaultServer()]);
    onTestFinished(() => Promise.all([service.close(), elsewhere.close()]).then(() => undefined));
    service.queue({
      fault: { kind: 'redirect', status: 302, location: `${elsewhere.baseUrl}/api/v1/merchant/me` },
    });
    const { error } = await settle(service.client({ maxRetries: 2 }).merchant.getProfile());
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(302);
    expect((error as Error).message).toMatch(/never follows redirects/);
    expect(service.order()).toEqual(['GET /api/v1/merchant/me']);
    expect(elsewhere.log).toEqual([]);
  });

  it('a 307 on a create: final, no lookup, no resend, nothing sent elsewhere', async ({ onTestFinished }) => {
    const [service, elsewhere] = await Promise.all([startFaultServer(), startFaultServer()]);
    onTestFinished(() => Promise.all([service.close(), elsewhere.close()]).then(() => undefined));
    service.queue({
      fault: { kind: 'redirect', status: 307, location: `${elsewhere.baseUrl}/api/v2/payin` },
    });
    const reference = nextReference('redirect');
    const { error } = await settle(service.client().payin.create(payinParams(reference)));
    expect((error as ApiError).status).toBe(307);
    expect(service.order()).toEqual(['POST /api/v2/payin']);
    expect(elsewhere.log).toEqual([]);
    // The credentials went to the configured origin only.
    expect(service.log[0]?.authorization).toMatch(/^Basic /);
  });
});

describe('a certificate the client does not trust', () => {
  it('fails the TLS handshake as not sent: nothing reached the service, a create says so', async ({
    onTestFinished,
  }) => {
    const tls = new URL('../fixtures/tls/', import.meta.url);
    const requests: string[] = [];
    const server = https.createServer(
      { cert: readFileSync(new URL('cert.pem', tls)), key: readFileSync(new URL('key.pem', tls)) },
      (request, response) => {
        requests.push(`${request.method} ${request.url}`);
        response.end('{}');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    onTestFinished(() => void server.close());
    const { port } = server.address() as AddressInfo;
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: `https://127.0.0.1:${port}`, maxRetries: 0 });
    const { error } = await settle(client.payin.create(payinParams(nextReference('tls'))));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).outcome).toBe('not_sent');
    expect((error as ConnectionError).message).toMatch(
      /SELF_SIGNED_CERT.*Nothing was sent: the server's TLS certificate was not trusted/,
    );
    expect(requests).toEqual([]);
  });
});
