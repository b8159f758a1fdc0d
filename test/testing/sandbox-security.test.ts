/**
 * The HTTP simulator against a DNS-rebinding page and against the network: on loopback every
 * endpoint (API, dashboard, checkout, openapi.json) answers only requests whose Host header names
 * this machine and port; off loopback the documented demo passwords do not work. Real HTTP only.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/index.js';
import {
  createSandbox,
  demoMerchants,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { basic, payIn } from './helpers.js';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Answer {
  status: number;
  body: string;
}

/** A request with any Host header (fetch does not let a caller choose it; a rebinding page's browser sends its own). */
function send(
  url: string,
  host: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'GET', headers: { ...init.headers, host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

/** HTTP/1.0 without any Host header, over a raw socket. */
function sendWithoutHost(port: number, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.0\r\n\r\n`));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (c: string) => {
      text += c;
    });
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

const CO = {
  authorization: basic('demo-co', 'demo-co-pass'),
  'token-top': 'demo-co-token',
  'content-type': 'application/json',
};

describe('bound to loopback: every endpoint checks the Host header', () => {
  it('refuses a foreign name with a 421 envelope on the API, dashboard, checkout and openapi.json', async () => {
    server = await startSandboxServer({ webhooks: false });
    const created = await fetch(`${server.url}/api/v2/payin`, {
      method: 'POST',
      headers: CO,
      body: JSON.stringify(payIn({ reference: 'rebind-1', payment_method: 'BREB' })),
    });
    expect(created.status).toBe(200);
    const ticket = server.sandbox.getTransaction('rebind-1')!.ticket;
    const attacker = `attacker.example:${server.port}`;
    const paths = [
      '/api/v1/merchant/balance',
      `/api/v1/transaction/${ticket}`,
      '/openapi.json',
      '/dashboard/',
      '/dashboard/api/state',
      `/checkout/${ticket}`,
    ];
    for (const path of paths) {
      const answer = await send(`${server.url}${path}`, attacker, { headers: CO });
      expect(answer.status, path).toBe(421);
      const body = JSON.parse(answer.body) as Record<string, string>;
      expect(body).toMatchObject({ code: '00', status: 'ERROR', error: 'MISDIRECTED_REQUEST' });
      expect(body.message).toContain("Host 'attacker.example");
      expect(body.message).toContain(`127.0.0.1:${server.port}`);
    }
    // The rebinding page cannot approve: the confirm is refused and nothing changed.
    const confirm = await send(`${server.url}/api/v1/sandbox/payin/confirm`, attacker, {
      method: 'POST',
      headers: CO,
      body: JSON.stringify({ transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' }),
    });
    expect(confirm.status).toBe(421);
    expect(server.sandbox.getTransaction(ticket)!.status).toBe('PENDING');
    expect(server.sandbox.merchants.find((m) => m.username === 'demo-co')!.balance).toBe(0);
  });

  it('answers localhost, 127.x and [::1] on its own port; refuses another port and a missing Host', async () => {
    server = await startSandboxServer({ webhooks: false });
    const { port, url } = server;
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `127.8.9.10:${port}`,
      `[::1]:${port}`,
      `LOCALHOST:${port}`,
    ]) {
      expect((await send(`${url}/openapi.json`, host)).status, host).toBe(200);
    }
    for (const host of [
      `127.0.0.1:${port + 1}`,
      'localhost',
      `localhost.attacker.example:${port}`,
      `127.0.0.1:${port}x`,
    ]) {
      expect((await send(`${url}/openapi.json`, host)).status, host).toBe(421);
    }
    const raw = await sendWithoutHost(port, '/openapi.json');
    expect(raw).toMatch(/^HTTP\/1\.1 421 /);
    expect(raw).toContain('without a Host header');
    // fetch names the host it connects to: the ordinary path is untouched.
    expect((await fetch(`${url}/api/v1/merchant/balance`, { headers: CO })).status).toBe(200);
  });
});

describe('bound beyond loopback', () => {
  it('gives the demo merchants random passwords and tokens; the documented ones are refused', async () => {
    server = await startSandboxServer({ host: '0.0.0.0', webhooks: false });
    const local = server.url.replace('0.0.0.0', '127.0.0.1');
    const documented = demoMerchants();
    expect(server.sandbox.merchants.map((m) => m.username)).toEqual(documented.map((m) => m.username));
    for (const [i, merchant] of server.sandbox.merchants.entries()) {
      expect(merchant.password).not.toBe(documented[i]!.password);
      expect(merchant.token).not.toBe(documented[i]!.token);
      expect(merchant.password.length).toBeGreaterThanOrEqual(20);
    }
    const refused = await fetch(`${local}/api/v1/merchant/balance`, { headers: CO });
    expect(refused.status).toBe(401);
    const co = server.sandbox.merchants.find((m) => m.username === 'demo-co')!;
    const allowed = await fetch(`${local}/api/v1/merchant/balance`, {
      headers: { authorization: basic(co.username, co.password), 'token-top': co.token },
    });
    expect(allowed.status).toBe(200);
    // Reached by any name (the network decides who gets here), the credentials decide the rest.
    const byName = await send(`${local}/api/v1/merchant/balance`, `sandbox.lan:${server.port}`, {
      headers: { authorization: basic(co.username, co.password), 'token-top': co.token },
    });
    expect(byName.status).toBe(200);
    const dashboard = await fetch(`${local}/dashboard/`, {
      headers: { authorization: basic('demo-co', 'demo-co-pass') },
    });
    expect(dashboard.status).toBe(401);

    const again = await startSandboxServer({ host: '0.0.0.0', webhooks: false });
    expect(again.sandbox.merchants[0]!.password).not.toBe(server.sandbox.merchants[0]!.password);
    await again.close();
  });

  it('keeps merchants given explicitly and refuses to expose a sandbox holding the documented ones', async () => {
    const seed = {
      username: 'shop',
      password: 'shop-secret-1',
      token: 'shop-token-1',
      country: 'CO' as const,
    };
    server = await startSandboxServer({ host: '0.0.0.0', webhooks: false, merchants: [seed] });
    expect(server.sandbox.merchants.map((m) => [m.username, m.password])).toEqual([
      ['shop', 'shop-secret-1'],
    ]);
    const sandbox = createSandbox({ webhooks: false });
    const error = await startSandboxServer({ host: '0.0.0.0', sandbox }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigurationError);
    expect((error as Error).message).toMatch(
      /documented demo credentials of demo-co, demo-pe.*reachable from the network/,
    );
    sandbox.close();
  });
});
