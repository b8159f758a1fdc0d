/**
 * The simulator dashboard in a real browser (Debian's Chromium through playwright-core): a
 * PayIn from creation (raw HTTP) to approval through the page's buttons, its webhook delivery
 * row, Resend webhook, live updates, the checkout link, escaping, and the credentials rule on a
 * non-loopback bind. Any page error, failed request or unexpected 4xx/5xx fails the test.
 * Screenshots: test-artifacts/dashboard/ (kept by CI as artifacts).
 */
import { mkdir } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { launchChromium, skipChromium } from '../helpers/chromium.js';
import { basic, CUSTOMER_CO } from './helpers.js';

const SCREENSHOTS = resolve('test-artifacts/dashboard');
let browser: Browser;
let context: BrowserContext | undefined;
let sandboxServer: SandboxServer | undefined;
let receiver: Server;
let receiverUrl: string;
const received: { body: string; signature: string | undefined }[] = [];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ body, signature: req.headers['x-trx-signature'] as string | undefined });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('received');
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
});

afterEach(async () => {
  await context?.close();
  context = undefined;
  await sandboxServer?.close();
  sandboxServer = undefined;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((ok) => receiver?.close(ok));
});

/** A page that records every problem a user would see (or not see). */
async function openPage(options: { httpCredentials?: { username: string; password: string } } = {}) {
  context = await browser.newContext({ viewport: { width: 1200, height: 860 }, ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
  });
  page.on('requestfailed', (r) => {
    // EventSource connections are aborted when the page navigates or closes; that is no failure.
    if (!r.url().endsWith('/dashboard/events'))
      problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  // Only this machine is ever contacted.
  page.on('request', (r) => {
    const host = new URL(r.url()).hostname;
    if (host !== '127.0.0.1' && host !== 'localhost') problems.push(`external request: ${r.url()}`);
  });
  return { page, problems };
}

const merchantHeaders = (u: string, p: string, t: string) => ({
  authorization: basic(u, p),
  'token-top': t,
  'content-type': 'application/json',
});
const CO = merchantHeaders('demo-co', 'demo-co-pass', 'demo-co-token');

async function createPayIn(baseUrl: string, fields: Record<string, unknown>, headers = CO) {
  const response = await fetch(`${baseUrl}/api/v2/payin`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      amount: 150_000.5,
      currency: 'COP',
      country: 'CO',
      description: 'Order 1001',
      customer_data: CUSTOMER_CO,
      ...fields,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { ticket: string } }).data.ticket;
}

/** GET with a Host header fetch() will not let us set (the DNS-rebinding case). */
function statusWithHost(url: string, host: string): Promise<number | undefined> {
  return new Promise((ok, fail) => {
    request(url, { headers: { host } }, (res) => {
      res.resume();
      ok(res.statusCode);
    })
      .on('error', fail)
      .end();
  });
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`), fullPage: true });

describe.skipIf(skipChromium)('simulator dashboard in Chromium', () => {
  it('drives a PayIn from creation to approval, shows the delivery and resends it', async () => {
    sandboxServer = await startSandboxServer({ timeScale: 0.001 });
    const { url, dashboardUrl } = sandboxServer;
    expect(dashboardUrl).toBe(`${url}/dashboard/`);
    received.length = 0;
    const { page, problems } = await openPage();
    await page.goto(dashboardUrl);
    await expect.poll(() => page.locator('#live').textContent()).toBe('Live');

    // Created over raw HTTP while the page is open: the row appears by itself.
    const reference = 'order-1001';
    const ticket = await createPayIn(url, { reference, payment_method: 'BREB', ipn_url: receiverUrl });
    const link = page.getByRole('link', { name: reference, exact: true });
    await link.waitFor({ timeout: 2_000 }); // SSE + a coalescing window of 100 ms; slack for loaded CI
    const row = page.locator('tr', { has: link });
    await expect.poll(() => row.textContent()).toContain('COP 150.000,50');
    await expect.poll(() => row.textContent()).toContain('PENDING');
    // Quick confirm buttons on the row: exactly the statuses the table allows for BREB in CO.
    expect(await row.getByRole('button').allTextContents()).toEqual(['APPROVED', 'REJECTED']);
    await shot(page, '1-overview');

    // Keyboard: focus the reference link and open it with Enter.
    await link.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('h1').textContent()).toBe(reference);
    expect(await page.locator('h1').evaluate((e) => e === document.activeElement)).toBe(true);
    expect(page.url()).toContain(`#/tx/${ticket}`);
    // BREB: the supported-status table allows APPROVED and REJECTED, not EXPIRED.
    await page.getByRole('button', { name: 'APPROVED', exact: true }).waitFor();
    await page.getByRole('button', { name: 'REJECTED', exact: true }).waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'EXPIRED', exact: true }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Resend webhook' }).isDisabled()).toBe(true);
    await shot(page, '2-pending');

    await page.getByRole('button', { name: 'APPROVED', exact: true }).click();
    await expect.poll(() => page.locator('.title .badge').textContent()).toBe('APPROVED');
    await expect.poll(() => page.locator('#notice').textContent()).toContain('Transaction APPROVED');
    // Confirm buttons are gone (final status); history shows both statuses.
    await expect.poll(() => page.getByRole('button', { name: 'REJECTED', exact: true }).count()).toBe(0);
    const history = page.getByRole('region', { name: 'Status history' });
    await expect.poll(() => history.locator('tbody tr').count()).toBe(2);
    await expect.poll(() => history.locator('tbody tr').nth(1).textContent()).toContain('APPROVED');

    // The delivery row: time, target, answer; no next retry after a 200.
    const deliveries = page.getByRole('region', { name: 'Webhook deliveries' });
    const first = deliveries.locator('tbody tr', { hasText: '#1 APPROVED' });
    await expect.poll(() => first.textContent()).toContain(receiverUrl);
    await expect.poll(() => first.textContent()).toContain('HTTP 200');
    await expect.poll(() => first.textContent()).toContain('received');
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ top_ticket: ticket, top_status: 'APPROVED' });

    // Resend webhook, by keyboard: the same event again as delivery #2.
    await page.getByRole('button', { name: 'Resend webhook' }).focus();
    await page.keyboard.press('Space');
    await expect
      .poll(() => deliveries.locator('tbody tr', { hasText: '#2 APPROVED (resend of #1)' }).textContent())
      .toContain('HTTP 200');
    expect(received).toHaveLength(2);
    expect(received[1]!.body).toBe(received[0]!.body);
    expect(received[1]!.signature).toBe(received[0]!.signature);
    await shot(page, '3-approved-and-resent');

    // Back to the overview: the balance was credited and formatted like balance_formatted.
    await page.getByRole('link', { name: '← All transactions' }).click();
    const card = page.getByRole('region', { name: 'demo-co (sandbox Colombia)' });
    await expect.poll(() => card.locator('.balance b').textContent()).toBe('COP 150.000,50');
    // A second PayIn, rejected straight from its row on the overview.
    await createPayIn(url, { reference: 'order-1002', payment_method: 'BREB', ipn_url: receiverUrl });
    const second = page.locator('tr', { has: page.getByRole('link', { name: 'order-1002', exact: true }) });
    await second.getByRole('button', { name: 'REJECTED', exact: true }).click();
    await expect.poll(() => second.locator('.badge').textContent()).toBe('REJECTED');
    expect(await second.getByRole('button').count()).toBe(0);
    await shot(page, '4-overview-after');
    const balance = await fetch(`${url}/api/v1/merchant/balance`, { headers: CO });
    expect(((await balance.json()) as { data: { balance_formatted: string } }).data.balance_formatted).toBe(
      'COP 150.000,50',
    );
    expect(problems).toEqual([]);
  });

  it('offers no confirm button where the table allows none, links the checkout page, escapes everything', async () => {
    sandboxServer = await startSandboxServer({ timeScale: 0.001 });
    const hostile = '<img src=x id=pwned onerror="document.title=1">&amp;';
    const ticket = await createPayIn(sandboxServer.url, {
      reference: hostile,
      payment_method: 'CARD',
      description: '<script>document.title="x"</script>',
      ipn_url: `${receiverUrl}?q=<b>`,
    });
    const { page, problems } = await openPage();
    await page.goto(`${sandboxServer.dashboardUrl}#/tx/${encodeURIComponent(ticket)}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe(hostile);
    await page.getByText('<script>document.title="x"</script>').waitFor();
    expect(await page.locator('#pwned').count()).toBe(0);
    for (const status of ['APPROVED', 'REJECTED', 'EXPIRED']) {
      await expect.poll(() => page.getByRole('button', { name: status, exact: true }).count()).toBe(0);
    }
    await page.getByText('Not driven by sandbox confirm').waitFor();
    await shot(page, '5-card-no-confirm');

    // The hosted checkout page of payment_url is one click away; paying there updates the view.
    await page.getByRole('link', { name: /hosted checkout page/ }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Sandbox checkout');
    const paid = page.waitForResponse(
      (r) => r.url().includes('/checkout/') && r.request().method() === 'POST',
    );
    const answered = page.waitForEvent('load'); // the answer page, loaded in full before we leave it
    await page.getByRole('button', { name: 'APPROVED' }).click();
    expect((await paid).status()).toBe(200);
    await answered;
    await page.goto(`${sandboxServer.dashboardUrl}#/tx/${encodeURIComponent(ticket)}`);
    await expect.poll(() => page.locator('.title .badge').textContent()).toBe('APPROVED');
    expect(problems).toEqual([]);
  });

  it('refuses state changes without the page token or from another origin; GET changes nothing', async () => {
    sandboxServer = await startSandboxServer({ webhooks: false });
    const ticket = await createPayIn(sandboxServer.url, { reference: 'csrf-1', payment_method: 'BREB' });
    const action = `${sandboxServer.dashboardUrl}api/transactions/${ticket}/confirm`;
    const json = { 'content-type': 'application/json' };
    const body = JSON.stringify({ status: 'APPROVED' });
    expect((await fetch(action, { method: 'POST', headers: json, body })).status).toBe(403);
    const html = await (await fetch(sandboxServer.dashboardUrl)).text();
    const token = /name="dashboard-token" content="([^"]+)"/.exec(html)![1]!;
    const withToken = { ...json, 'x-dashboard-token': token };
    const crossSite = { ...withToken, origin: 'http://evil.example' };
    expect((await fetch(action, { method: 'POST', headers: crossSite, body })).status).toBe(403);
    const form = { 'content-type': 'text/plain', 'x-dashboard-token': token };
    expect((await fetch(action, { method: 'POST', headers: form, body })).status).toBe(403);
    expect((await fetch(action)).status).toBe(405);
    expect(sandboxServer.sandbox.getTransaction(ticket)?.status).toBe('PENDING');
    // A page the browser resolves through another name (DNS rebinding) is refused.
    expect(await statusWithHost(sandboxServer.dashboardUrl, 'attacker.example')).toBe(421);
    expect((await fetch(action, { method: 'POST', headers: withToken, body })).status).toBe(200);
    expect(sandboxServer.sandbox.getTransaction(ticket)?.status).toBe('APPROVED');
    const page = await fetch(sandboxServer.dashboardUrl);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'none'; script-src 'self'/);
  });

  it('bound to a non-loopback address: asks for a merchant login and shows only that merchant', async () => {
    sandboxServer = await startSandboxServer({ host: '0.0.0.0', webhooks: false });
    // Only ever connect to this machine's loopback address.
    const local = sandboxServer.dashboardUrl.replace('0.0.0.0', '127.0.0.1');
    // Reachable from the network: the demo merchants got random credentials (host.ts).
    const creds = (username: string) =>
      sandboxServer!.sandbox.merchants.find((m) => m.username === username)!;
    const [co, peMerchant] = [creds('demo-co'), creds('demo-pe')];
    expect(peMerchant.password).not.toBe('demo-pe-pass');
    await createPayIn(
      sandboxServer.url,
      { reference: 'co-secret', payment_method: 'BREB' },
      merchantHeaders(co.username, co.password, co.token),
    );
    const pe = merchantHeaders(peMerchant.username, peMerchant.password, peMerchant.token);
    const peCustomer = { ...CUSTOMER_CO, legal_doc_type: 'DNI', phone_code: '51', phone_number: '987654321' };
    await createPayIn(
      sandboxServer.url,
      {
        reference: 'pe-order',
        payment_method: 'QR',
        currency: 'PEN',
        country: 'PE',
        customer_data: peCustomer,
      },
      pe,
    );

    const anonymous = await fetch(local);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic realm="payinout sandbox dashboard"/);
    const wrong = await fetch(local, { headers: { authorization: basic('demo-pe', 'nope') } });
    expect(wrong.status).toBe(401);
    const state = await fetch(`${local}api/state`, {
      headers: { authorization: basic('demo-pe', peMerchant.password) },
    });
    expect(
      ((await state.json()) as { merchants: { username: string }[] }).merchants.map((m) => m.username),
    ).toEqual(['demo-pe']);
    const coTicket = sandboxServer.sandbox.getTransaction('co-secret')!.ticket;
    const other = await fetch(`${local}api/transactions/${coTicket}`, {
      headers: { authorization: basic('demo-pe', peMerchant.password) },
    });
    expect(other.status).toBe(404);

    const { page, problems } = await openPage({
      httpCredentials: { username: 'demo-pe', password: peMerchant.password },
    });
    await page.goto(local);
    await page.getByRole('link', { name: 'pe-order' }).waitFor();
    await expect.poll(() => page.getByText('co-secret').count()).toBe(0);
    await expect.poll(() => page.locator('section.card').count()).toBe(1);
    await page.getByRole('link', { name: 'pe-order' }).click();
    // QR in Peru: APPROVED, REJECTED and EXPIRED are all in the table.
    for (const status of ['APPROVED', 'REJECTED', 'EXPIRED']) {
      await page.getByRole('button', { name: status, exact: true }).waitFor();
    }
    await page.getByRole('button', { name: 'EXPIRED', exact: true }).click();
    await expect.poll(() => page.locator('.title .badge').textContent()).toBe('EXPIRED');
    await shot(page, '6-merchant-login');
    expect(problems).toEqual([]);

    // The browser's own request stack gets the same challenge without credentials.
    const anonymousBrowser = await browser.newContext();
    const challenge = await anonymousBrowser.request.get(local);
    expect(challenge.status()).toBe(401);
    expect(challenge.headers()['www-authenticate']).toContain('Basic');
    await anonymousBrowser.close();
  });
});
