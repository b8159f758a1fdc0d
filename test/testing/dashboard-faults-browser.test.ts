/**
 * The dashboard's fault panel in Chromium: add a rule by its SPEC, watch its counts as requests
 * hit it, see the fault in the transaction's history, remove it. Screenshots at 1280 and 390 px.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { launchChromium, skipChromium } from '../helpers/chromium.js';
import { basic, payOut } from './helpers.js';

const SCREENSHOTS = resolve('test-artifacts/dashboard');
let browser: Browser;
let server: SandboxServer;

beforeAll(async () => {
  if (skipChromium) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  browser = await launchChromium();
  server = await startSandboxServer({
    webhooks: false,
    seed: 5,
    merchants: [
      {
        username: 'demo-co',
        password: 'demo-co-pass',
        token: 'demo-co-token',
        country: 'CO',
        balance: 1_000_000,
      },
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const auth = {
  authorization: basic('demo-co', 'demo-co-pass'),
  'token-top': 'demo-co-token',
  'content-type': 'application/json',
};

describe.skipIf(skipChromium)('dashboard fault panel', () => {
  it('adds a rule, shows matched/fired counts live, shows the fault in the history, removes the rule', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.dashboardUrl);
    await expect.poll(() => page.getByText('No fault rules').count()).toBe(1);
    await page.getByLabel('Fault rule', { exact: true }).fill('payout.creat:drop-after-commit');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => page.locator('#notice').textContent()).toMatch(/did you mean payout\.create\?/);
    expect(server.sandbox.faults.list()).toEqual([]);
    await page.getByLabel('Fault rule', { exact: true }).fill('payout.create:drop-after-commit:times=1');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await expect.poll(() => server.sandbox.faults.list().length).toBe(1);
    const body = payOut();
    await fetch(`${server.url}/api/v1/payout`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(body),
    }).catch(() => {});
    await fetch(`${server.url}/api/v1/payout`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(payOut()),
    });
    const row = page.locator('table.fault-list tbody tr');
    await expect.poll(() => row.textContent()).toMatch(/fault-1payout\.createdrop-after-committimes=121/);
    await page.screenshot({ path: `${SCREENSHOTS}/faults-1280.png`, fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}/faults-390.png`, fullPage: true });
    const addButton = await page.getByRole('button', { name: 'Add rule' }).boundingBox();
    expect(addButton!.x + addButton!.width).toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByRole('button', { name: 'Remove fault-1' }).click();
    await expect.poll(() => server.sandbox.faults.list().length).toBe(0);
    await page.getByRole('link', { name: body.reference }).click();
    await expect
      .poll(() => page.getByText('payout.create: answer dropped after commit (fault-1)').count())
      .toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
