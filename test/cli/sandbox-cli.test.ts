/** `payinout sandbox`: spawn it, read base_url=, call it, SIGTERM/SIGINT, clean exit. */
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, spawnCli } from './support.js';

afterEach(killAll);

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('payinout sandbox', () => {
  it('prints base_url and the merchants, serves the API, exits 0 on SIGTERM', async () => {
    const cli = spawnCli([
      'sandbox',
      '--port',
      '0',
      '--merchant',
      'shop:secret:tok123:pe',
      '--time-scale',
      '0.001',
    ]);
    const { baseUrl, stdout } = await cli.started;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).toContain('merchant username=shop password=secret token=tok123 country=PE currency=PEN');
    const response = await fetch(`${baseUrl}/api/v1/merchant/balance`, {
      headers: { authorization: basic('shop', 'secret'), 'token-top': 'tok123' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      code: '01',
      data: { currency: 'PEN', balance_formatted: 'PEN 0,00' },
    });
    cli.child.kill('SIGTERM');
    const [code] = await cli.exit;
    expect(code).toBe(0);
  });

  it('without --merchant seeds one demo merchant per country; SIGINT also stops cleanly', async () => {
    const cli = spawnCli(['sandbox', '--port', '0']);
    const { stdout } = await cli.started;
    for (const country of ['CO', 'PE', 'MX', 'GT', 'HN'])
      expect(stdout).toMatch(new RegExp(`country=${country} `));
    cli.child.kill('SIGINT');
    const [code] = await cli.exit;
    expect(code).toBe(0);
  });

  it('bound beyond loopback: random demo credentials printed once in the usual lines, and a warning', async () => {
    const cli = spawnCli(['sandbox', '--port', '0', '--host', '0.0.0.0']);
    const { stdout, env } = await cli.started;
    const local = env.PAYINOUT_BASE_URL!;
    expect(local).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).not.toContain('demo-co-pass');
    expect(stdout).not.toContain('demo-co-token');
    const line = /^merchant username=demo-co password=(\S+) token=(\S+) country=CO currency=COP$/m.exec(
      stdout,
    );
    expect(line).not.toBeNull();
    expect(env.PAYINOUT_PASSWORD).toBe(line![1]);
    expect(env.PAYINOUT_TOKEN).toBe(line![2]);
    await expect
      .poll(() => cli.output().stderr)
      .toMatch(/WARNING: bound to 0\.0\.0\.0.*reachable from the network/);
    expect(cli.output().stderr).toContain('random passwords and tokens');
    const balance = (password: string, token: string) =>
      fetch(`${local}/api/v1/merchant/balance`, {
        headers: { authorization: basic('demo-co', password), 'token-top': token },
      });
    expect((await balance('demo-co-pass', 'demo-co-token')).status).toBe(401);
    expect((await balance(env.PAYINOUT_PASSWORD!, env.PAYINOUT_TOKEN!)).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect((await cli.exit)[0]).toBe(0);
  });

  it('--max-transactions N keeps at most N transactions: the oldest final ones go, the dashboard counts them', async () => {
    const cli = spawnCli(['sandbox', '--port', '0', '--max-transactions', '3']);
    const { baseUrl, dashboardUrl } = await cli.started;
    const headers = {
      authorization: basic('demo-co', 'demo-co-pass'),
      'token-top': 'demo-co-token',
      'content-type': 'application/json',
    };
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { ticket: string } }).data;
    };
    const customer_data = {
      legal_doc: '1020304050',
      legal_doc_type: 'CC',
      phone_code: '57',
      phone_number: '3001234567',
      email: 'ana@example.com',
      full_name: 'Ana Gomez',
    };
    const pendingOne = await post('/api/v2/payin', {
      reference: 'kept-pending',
      amount: 1000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'Order',
      customer_data,
    });
    for (let i = 1; i <= 4; i++) {
      const { ticket } = await post('/api/v2/payin', {
        reference: `final-${i}`,
        amount: 1000,
        currency: 'COP',
        country: 'CO',
        payment_method: 'BREB',
        description: 'Order',
        customer_data,
      });
      await post('/api/v1/sandbox/payin/confirm', {
        transaction_id: ticket,
        payment_method: 'BREB',
        status: 'APPROVED',
      });
    }
    const lookup = (id: string) =>
      fetch(`${baseUrl}/api/v1/transaction/${id}`, { headers }).then((r) => r.status);
    expect(await lookup('final-1')).toBe(404);
    expect(await lookup('final-2')).toBe(404);
    expect(await lookup(pendingOne.ticket)).toBe(200);
    expect(await lookup('final-4')).toBe(200);
    const state = (await (await fetch(`${dashboardUrl}api/state`)).json()) as {
      retention: { max: number; dropped: number };
    };
    expect(state.retention).toEqual({ max: 3, dropped: 2 });
    expect(cli.output().stderr).toContain('Keeping at most 3 transactions');
    cli.child.kill('SIGTERM');
    expect((await cli.exit)[0]).toBe(0);
  });

  it('refuses --max-transactions 0 with exit code 2', async () => {
    const cli = spawnCli(['sandbox', '--port', '0', '--max-transactions', '0']);
    cli.started.catch(() => {});
    const [code] = await cli.exit;
    expect(code).toBe(2);
    expect(cli.output().stderr).toMatch(/max-transactions/);
  });

  it('refuses a malformed --merchant with exit code 2', async () => {
    const cli = spawnCli(['sandbox', '--port', '0', '--merchant', 'a:b:c']);
    cli.started.catch(() => {});
    const [code] = await cli.exit;
    expect(code).toBe(2);
    expect(cli.output().stderr).toMatch(/USER:PASS:TOKEN:COUNTRY/);
  });
});
