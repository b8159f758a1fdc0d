/**
 * Renders the typedoc site (`npm run docs` → docs/api) in headless Debian Chromium and checks
 * what a reader does first: open the PaymentClient page, follow `client.payin` to its methods,
 * and search for PaymentClient. Run with `npm run test:docs`; screenshots go to test-results/.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium, skipChromium } from '../helpers/chromium.js';
import { type StaticServer, serveDirectory } from './serve.js';

const SITE = resolve('docs/api');
const SCREENSHOTS = resolve('test-results');

let server: StaticServer;
let browser: Browser;
let page: Page;
/** Script errors, failed requests and 4xx/5xx answers seen while a test ran. */
let problems: string[] = [];

beforeAll(async () => {
  if (!existsSync(resolve(SITE, 'index.html'))) {
    throw new Error('docs/api/index.html is missing: run `npm run docs` first (npm run test:docs does).');
  }
  await mkdir(SCREENSHOTS, { recursive: true });
  server = await serveDirectory(SITE);
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.setDefaultTimeout(10_000);
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
  });
});

beforeEach(() => {
  problems = [];
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** The member section typedoc renders for `name` (its heading's id is the lower-cased name). */
const member = (name: string) => page.locator(`section.tsd-member:has(> [id="${name.toLowerCase()}"])`);

describe.skipIf(skipChromium)('generated API docs', () => {
  it('renders the PaymentClient page with its members and their docs', async () => {
    const response = await page.goto(`${server.url}classes/payinout.PaymentClient.html`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('.tsd-page-title h1').textContent()).resolves.toBe('Class PaymentClient');
    for (const name of ['payin', 'payout', 'merchant', 'transactions', 'sandbox', 'webhooks', 'fromEnv']) {
      expect(await member(name).isVisible(), `member ${name}`).toBe(true);
    }
    // The class comment and its example are rendered, with highlighted code.
    await expect(page.locator('.tsd-comment').first().textContent()).resolves.toContain('payinout client');
    expect(await page.locator('pre code').count()).toBeGreaterThan(0);
    await page.screenshot({ path: resolve(SCREENSHOTS, 'docs.png') });
    expect(problems).toEqual([]);
  });

  it('links client.payin to a page listing the PayIn methods', async () => {
    await page.goto(`${server.url}classes/payinout.PaymentClient.html`);
    await member('payin').locator('a.tsd-signature-type', { hasText: 'PayInResource' }).click();
    await page.waitForURL(/PayInResource\.html$/);
    for (const name of ['create', 'createLegacy', 'listPseBanks']) {
      expect(await member(name).isVisible(), `method ${name}`).toBe(true);
    }
    expect(problems).toEqual([]);
  });

  it('finds PaymentClient through the search box', async () => {
    await page.goto(server.url);
    // typedoc's search index is a separate script; the search works once it has run.
    await page.waitForFunction(() => 'searchData' in window);
    await page.locator('#tsd-search-trigger').click();
    await page.locator('#tsd-search-input').fill('PaymentClient');
    const hit = page.locator('#tsd-search-results li a[href$="classes/payinout.PaymentClient.html"]');
    await hit.waitFor({ state: 'visible' });
    await page.screenshot({ path: resolve(SCREENSHOTS, 'docs-search.png') });
    await hit.click();
    await page.waitForURL(/classes\/payinout\.PaymentClient\.html/);
    await expect(page.locator('.tsd-page-title h1').textContent()).resolves.toBe('Class PaymentClient');
    expect(problems).toEqual([]);
  });

  it('lists the fields of PayInCreateParams with the descriptions written on the schema', async () => {
    const response = await page.goto(`${server.url}types/payinout.PayInCreateParams.html`);
    expect(response?.status()).toBe(200);
    // One field list per country; Colombia's comes first. Each field is an <h5> with its name,
    // followed by the description taken from the schema field's doc comment.
    const field = page.locator('.tsd-type-declaration li.tsd-parameter', {
      has: page.locator('h5 > span', { hasText: /^customer_data$/ }),
    });
    await expect(field.first().locator('h5').textContent()).resolves.toMatch(/^customer_data\s*:/);
    await expect(field.first().locator('.tsd-comment').first().textContent()).resolves.toContain(
      'The paying customer; bank and person_type only for PSE direct (Colombia).',
    );
    await page.screenshot({ path: resolve(SCREENSHOTS, 'docs-payin-params.png'), fullPage: false });
    expect(problems).toEqual([]);
  });

  it('groups the module index: Client, Resources, Webhooks, Errors, Schemas, Testing', async () => {
    await page.goto(`${server.url}modules/payinout.html`);
    const sections = await page.locator('details.tsd-member-group > summary h2').allTextContents();
    expect(sections.map((title) => title.trim())).toEqual([
      'Client',
      'Resources',
      'Webhooks',
      'Errors',
      'Schemas',
    ]);
    const client = page.locator('details.tsd-member-group', {
      has: page.locator('h2', { hasText: 'Client' }),
    });
    await expect(client.locator('a', { hasText: /^PaymentClient$/ }).count()).resolves.toBe(1);
    await page.goto(`${server.url}modules/payinout_testing.html`);
    const testing = await page.locator('details.tsd-member-group > summary h2').allTextContents();
    expect(testing.map((title) => title.trim())).toEqual(['Testing']);
    expect(problems).toEqual([]);
  });
});
