/**
 * Renders the typedoc site (`npm run docs` → docs/api) in headless Debian Chromium and checks
 * what a reader does first: open the PaymentClient page and search for it.
 * Run with `npm run test:docs`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StaticServer, serveDirectory } from './serve.js';

const SITE = resolve('docs/api');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT_DIR = resolve('test-results');

// Flags for a container without a display, GPU or user namespace; the rest keep Chromium
// from calling home, which would slow the run and fail offline.
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

let server: StaticServer;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!existsSync(resolve(SITE, 'index.html'))) {
    throw new Error('docs/api/index.html is missing: run `npm run docs` first (npm run test:docs does).');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH).`);
  }
  server = await serveDirectory(SITE);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('pageerror', (error) => pageErrors.push(error.message));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('generated API docs', () => {
  it('renders the PaymentClient page with its members', async () => {
    // The file name carries the module name (index.PaymentClient.html or payinout.PaymentClient.html).
    const file = readdirSync(resolve(SITE, 'classes')).find((name) => name.endsWith('.PaymentClient.html'));
    expect(file, 'docs/api/classes has no PaymentClient page').toBeDefined();
    const response = await page.goto(`${server.url}classes/${file}`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('.tsd-page-title h1').textContent()).resolves.toContain('PaymentClient');
    // The members a merchant reaches for first are documented on the page.
    const body = await page.locator('.col-content').textContent();
    for (const member of ['payin', 'transactions', 'fromEnv']) expect(body).toContain(member);
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: resolve(SCREENSHOT_DIR, 'docs.png'), fullPage: false });
    expect(pageErrors).toEqual([]);
  });

  it('finds PaymentClient through the search box', async () => {
    await page.goto(server.url);
    // typedoc's search index loads asynchronously; the field is usable once it has.
    await page.waitForFunction(() => 'searchData' in window);
    await page.locator('#tsd-search-trigger').click();
    await page.locator('#tsd-search-input').fill('PaymentClient');
    const hit = page.locator('#tsd-search-results li a', { hasText: 'PaymentClient' }).first();
    await hit.waitFor({ state: 'visible' });
    await mkdir(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: resolve(SCREENSHOT_DIR, 'docs-search.png') });
    await hit.click();
    await page.waitForURL(/PaymentClient\.html/);
    expect(pageErrors).toEqual([]);
  });
});
