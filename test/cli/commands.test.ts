/**
 * `payinout sandbox | confirm | get` as a user runs them: the banner, the port fallback,
 * webhook forwarding, the export lines feeding `get` and `confirm`, one-line errors, --help.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { basic, CUSTOMER_CO } from '../testing/helpers.js';
import { killAll, runCli, spawnCli } from './support.js';

afterEach(killAll);

let receiver: Server;
let receiverUrl: string;
const webhooks: string[] = [];
beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      webhooks.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
});
afterAll(() => new Promise((ok) => receiver.close(ok)));

async function createPayIn(baseUrl: string, reference: string, ipn_url: string) {
  const response = await fetch(`${baseUrl}/api/v2/payin`, {
    method: 'POST',
    headers: {
      authorization: basic('demo-co', 'demo-co-pass'),
      'token-top': 'demo-co-token',
      'content-type': 'application/json',
    },
    body: JSON.stringify({
      reference,
      amount: 150_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'CLI test',
      customer_data: CUSTOMER_CO,
      ipn_url,
    }),
  });
  expect(response.status).toBe(200);
}

describe('payinout sandbox', () => {
  it('prints dashboard= after base_url= and export lines that get and confirm use; --forward-webhooks redirects every webhook', async () => {
    const sandbox = spawnCli([
      'sandbox',
      '--port',
      '0',
      '--time-scale',
      '0.001',
      '--forward-webhooks',
      receiverUrl,
    ]);
    const { baseUrl, dashboardUrl, stdout, env } = await sandbox.started;
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`base_url=${baseUrl}`);
    expect(lines[1]).toBe(`dashboard=${baseUrl}/dashboard/`);
    expect((await fetch(dashboardUrl)).status).toBe(200);
    expect(env).toEqual({
      PAYINOUT_BASE_URL: baseUrl,
      PAYINOUT_USERNAME: 'demo-co',
      PAYINOUT_PASSWORD: 'demo-co-pass',
      PAYINOUT_TOKEN: 'demo-co-token',
      PAYINOUT_ENVIRONMENT: 'staging',
    });

    // A public ipn_url the test never reaches: the webhook goes to the forward URL instead.
    await createPayIn(baseUrl, 'cli-1001', 'https://merchant.example/ipn');
    const got = await runCli(['get', 'cli-1001'], env);
    expect(got.code).toBe(0);
    expect(JSON.parse(got.stdout)).toMatchObject({
      reference: 'cli-1001',
      status: 'PENDING',
      type_transaction: 'PAYIN',
    });

    webhooks.length = 0;
    const confirmed = await runCli(['confirm', 'cli-1001', 'APPROVED'], env);
    expect(confirmed.stderr).toBe('');
    expect(confirmed.code).toBe(0);
    expect(confirmed.stdout).toMatch(/^cli-1001 \(ticket [\w-]+, PayIn BREB\) → APPROVED\n$/);
    await expect.poll(() => webhooks.length).toBe(1);
    expect(JSON.parse(webhooks[0]!)).toMatchObject({ top_reference: 'cli-1001', top_status: 'APPROVED' });

    // A refusal of the service: one line on stderr, exit 1.
    const again = await runCli(['confirm', 'cli-1001', 'REJECTED', '--method', 'BREB'], env);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^payinout: AlreadyFinalError: .*ALREADY_FINAL.*\n$/);
    const missing = await runCli(['get', 'no-such-order'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^payinout: NotFoundError: [^\n]+\n$/);
  }, 60_000);

  it('names the port it chose when the first port is taken', async () => {
    // A port this test holds itself (another `payinout sandbox` may hold 4010 on this machine),
    // made the CLI's first port through PAYINOUT_SANDBOX_PORT.
    const blocker = createServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const held = String((blocker.address() as AddressInfo).port);
    try {
      const sandbox = spawnCli(['sandbox'], { PAYINOUT_SANDBOX_PORT: held });
      const { baseUrl } = await sandbox.started;
      const port = new URL(baseUrl).port;
      expect(port).not.toBe(held);
      await expect
        .poll(() => sandbox.output().stderr)
        .toMatch(new RegExp(`port ${held} is in use; listening on port ${port} instead`));
    } finally {
      await new Promise((ok) => blocker.close(ok));
    }
  });

  it('listens on PAYINOUT_SANDBOX_PORT when it is free, saying nothing about it', async () => {
    const probe = createServer();
    await new Promise<void>((ok) => probe.listen(0, '127.0.0.1', ok));
    const free = String((probe.address() as AddressInfo).port);
    await new Promise((ok) => probe.close(ok));
    const sandbox = spawnCli(['sandbox'], { PAYINOUT_SANDBOX_PORT: free });
    const { baseUrl } = await sandbox.started;
    // Another process may take the port between the probe and the CLI: then the CLI says so.
    if (new URL(baseUrl).port === free) expect(sandbox.output().stderr).not.toMatch(/is in use/);
    else expect(sandbox.output().stderr).toMatch(new RegExp(`port ${free} is in use`));
  });

  it('an invalid PAYINOUT_SANDBOX_PORT exits 2 naming the variable and what is valid', async () => {
    const { code, stderr } = await runCli(['sandbox'], { PAYINOUT_SANDBOX_PORT: '4010x' });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^payinout: PAYINOUT_SANDBOX_PORT='4010x' is invalid\. Expected an integer from 1 to 65535\.\n$/,
    );
  });
});

describe('usage and configuration errors', () => {
  it.each([
    [
      ['sandbox', '--port', '70000'],
      /--port <n>.*'70000' is invalid\. Expected an integer from 0 to 65535\./,
    ],
    [['sandbox', '--time-scale', '-1'], /Expected a number above 0 and at most 1000/],
    [['sandbox', '--forward-webhooks', 'ftp://x'], /Expected an http:\/\/ or https:\/\/ URL/],
    [['sandbox', '--environment', 'prod'], /Allowed choices are staging, uat, production/],
    [['confirm', 'order-1', 'PAID'], /Allowed choices are APPROVED, REJECTED, EXPIRED/],
    [['refund'], /unknown command 'refund'/],
  ])('payinout %j exits 2 naming what is valid', async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^payinout: /);
    expect(stderr).toMatch(message);
  });

  it('get without the PAYINOUT_* environment says which variables to set, in one line, exit 2 (as payouts send and transactions check)', async () => {
    const { code, stderr } = await runCli(['get', 'order-1']);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^payinout: ConfigurationError: Missing environment variables PAYINOUT_USERNAME.*payinout sandbox\.\n$/,
    );
  });

  it.each([[[]], [['sandbox']], [['confirm']], [['get']]])('payinout %j --help', async (args) => {
    const { code, stdout } = await runCli([...args, '--help']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Usage: payinout/);
  });
});
