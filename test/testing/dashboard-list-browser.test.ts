/**
 * The dashboard's transaction list with 100,000 transactions, in a real browser (Chromium via
 * playwright-core): pages of 50 newest first (Next page / Previous page), the Search box
 * (reference or ticket), the Status filter, live rows under a filter, the retention notice, and
 * the 390 px layout (no sideways scroll, status and actions in reach, references on one line).
 * Filtering and paging happen on the server: one page crosses the wire, never the store.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTransactions } from '../../bench/simulator-seed.js';
import {
  createSandbox,
  type Sandbox,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { launchChromium, skipChromium } from '../helpers/chromium.js';
import { basic, CUSTOMER_CO } from './helpers.js';

const COUNT = 100_000;
let browser: Browser;
let sandbox: Sandbox;
let server: SandboxServer;
let pending: number;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  browser = await launchChromium();
  sandbox = createSandbox({ webhooks: false });
  pending = seedTransactions(sandbox, COUNT);
  server = await startSandboxServer({ sandbox });
}, 120_000);

afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.close();
});

async function openPage(width = 1280, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  contexts.push(context);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  return { page, problems };
}

const rows = (page: Page) => page.locator('table.list tbody tr');
const firstReference = (page: Page) => rows(page).first().getByRole('link').textContent();
const position = (page: Page) => page.locator('.position').textContent();

const CO_HEADERS = {
  authorization: basic('demo-co', 'demo-co-pass'),
  'token-top': 'demo-co-token',
  'content-type': 'application/json',
};

async function createPayIn(reference: string) {
  const response = await fetch(`${server.url}/api/v2/payin`, {
    method: 'POST',
    headers: CO_HEADERS,
    body: JSON.stringify({
      reference,
      amount: 1_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'Order',
      customer_data: CUSTOMER_CO,
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { data: { ticket: string } }).data.ticket;
}

describe.skipIf(skipChromium)('dashboard list over 100,000 transactions', () => {
  it('shows pages of 50, newest first, with Next page and Previous page; one page crosses the wire', async () => {
    const { page, problems } = await openPage();
    const state = page.waitForResponse((r) => r.url().includes('/dashboard/api/state'));
    await page.goto(server.dashboardUrl);
    const body = await (await state).body();
    expect(body.length).toBeLessThan(100_000); // 50 rows, not 100,000
    await expect.poll(() => rows(page).count()).toBe(50);
    const newest = [...sandbox.transactions.values()].at(-1)!.reference;
    await expect.poll(() => firstReference(page)).toBe(newest);
    await expect.poll(() => position(page)).toBe('1–50 of 100,000 · page 1 of 2,000');
    const previous = page.getByRole('button', { name: 'Previous page', exact: true });
    const next = page.getByRole('button', { name: 'Next page', exact: true });
    expect(await previous.isDisabled()).toBe(true);

    await next.click(); // scrolled down to the pager to click it
    await expect.poll(() => position(page)).toBe('51–100 of 100,000 · page 2 of 2,000');
    // The new page is shown from its top: the list's header is back in view.
    const top = await page
      .locator('section.panel[aria-labelledby="list-h"]')
      .evaluate((e) => e.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    const fifty = [...sandbox.transactions.values()].at(-51)!.reference;
    await expect.poll(() => firstReference(page)).toBe(fifty);
    expect(await rows(page).count()).toBe(50);
    await previous.click();
    await expect.poll(() => firstReference(page)).toBe(newest);
    expect(page.url()).not.toContain('page=');
    expect(problems).toEqual([]);
  });

  it('finds a transaction by reference or ticket with the Search box, and says when nothing matches', async () => {
    const { page, problems } = await openPage();
    await page.goto(server.dashboardUrl);
    const search = page.getByRole('searchbox', { name: 'Search', exact: true });
    await search.fill('order-150000-co');
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await firstReference(page)).toBe('order-150000-co');
    expect(await search.evaluate((e) => e === document.activeElement)).toBe(true);

    const target = sandbox.getTransaction('order-123457-pe')!;
    await search.fill(target.ticket.slice(0, 13).toUpperCase()); // part of a ticket, any case
    await expect.poll(() => firstReference(page)).toBe('order-123457-pe');
    expect(await rows(page).count()).toBe(1);

    await search.fill('order-1234');
    await expect.poll(() => position(page)).toBe('1–50 of 100 · page 1 of 2');
    await search.fill('no-such-order');
    await page.getByText('No transaction matches “no-such-order”.').waitFor();
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);

    // A new transaction that matches appears by itself while the filter is on; the box keeps its text.
    await search.fill('live-match');
    await page.getByText('No transaction matches “live-match”.').waitFor();
    await createPayIn('live-match-1');
    await page.getByRole('link', { name: 'live-match-1', exact: true }).waitFor({ timeout: 2_000 });
    expect(await search.inputValue()).toBe('live-match');
    expect(problems).toEqual([]);
  });

  it('filters by Status on the server, combines with Search, and keeps the query in the URL', async () => {
    const { page, problems } = await openPage();
    await page.goto(server.dashboardUrl);
    const status = page.getByRole('combobox', { name: 'Status', exact: true });
    await status.selectOption('PENDING');
    const pendingNow = [...sandbox.transactions.values()].filter((t) => t.status === 'PENDING').length;
    expect(pendingNow).toBeGreaterThanOrEqual(pending);
    await expect
      .poll(() => position(page))
      .toBe(
        `1–50 of ${pendingNow.toLocaleString('en-US')} · page 1 of ${Math.ceil(pendingNow / 50).toLocaleString('en-US')}`,
      );
    expect(new Set(await rows(page).locator('.badge').allTextContents())).toEqual(new Set(['PENDING']));

    await status.selectOption('REJECTED');
    await expect
      .poll(async () => new Set(await rows(page).locator('.badge').allTextContents()))
      .toEqual(new Set(['REJECTED']));
    await page.getByRole('searchbox', { name: 'Search', exact: true }).fill('-pe');
    await expect
      .poll(async () =>
        (await rows(page).getByRole('link').allTextContents()).every((r) => r.endsWith('-pe')),
      )
      .toBe(true);
    expect(page.url()).toContain('status=REJECTED');
    expect(page.url()).toContain('q=-pe');

    // A reload (or a shared link) shows the same view.
    await page.reload();
    expect(await page.getByRole('combobox', { name: 'Status', exact: true }).inputValue()).toBe('REJECTED');
    expect(await page.getByRole('searchbox', { name: 'Search', exact: true }).inputValue()).toBe('-pe');
    await expect
      .poll(async () => new Set(await rows(page).locator('.badge').allTextContents()))
      .toEqual(new Set(['REJECTED']));
    expect(problems).toEqual([]);
  });

  it('at 390 px: no sideways scroll, every status and action in reach, references on one line', async () => {
    const long = `order-${'x'.repeat(70)}-end`;
    await createPayIn(long);
    const { page, problems } = await openPage(390, 844);
    await page.goto(server.dashboardUrl);
    await expect.poll(() => firstReference(page)).toBe(long);
    const fits = () => page.evaluate(() => document.scrollingElement!.scrollWidth <= innerWidth);
    expect(await fits()).toBe(true);
    const boxes = await rows(page).evaluateAll((trs) =>
      trs.map((tr) => {
        const parts = [...tr.querySelectorAll('.badge, button')].map((e) => e.getBoundingClientRect());
        const link = tr.querySelector('a')!;
        const style = getComputedStyle(link.parentElement!);
        return {
          right: Math.max(...parts.map((r) => r.right)),
          left: Math.min(...parts.map((r) => r.left)),
          // One line: no taller than twice the font size, and told not to wrap.
          oneLine:
            link.getBoundingClientRect().height < 2 * Number.parseFloat(style.fontSize) &&
            style.whiteSpace === 'nowrap',
        };
      }),
    );
    expect(boxes).toHaveLength(50);
    for (const box of boxes) {
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.right).toBeLessThanOrEqual(390);
      expect(box.oneLine).toBe(true);
    }
    // The actions work at this width: reject the long one from its row.
    const row = rows(page).first();
    await row.getByRole('button', { name: 'REJECTED', exact: true }).click();
    await expect.poll(() => row.locator('.badge').textContent()).toBe('REJECTED');
    // Its own view fits too.
    await row.getByRole('link').click();
    await expect.poll(() => page.locator('h1').textContent()).toBe(long);
    expect(await fits()).toBe(true);
    expect(await page.locator('h1').evaluate((e) => getComputedStyle(e).whiteSpace)).toBe('nowrap');
    expect(problems).toEqual([]);
  });
});

describe.skipIf(skipChromium)('dashboard retention notice', () => {
  it('says how many final transactions maxTransactions dropped', async () => {
    const small = await startSandboxServer({ webhooks: false, maxTransactions: 10 });
    try {
      seedTransactions(small.sandbox, 30, { pendingEvery: 1_000 });
      expect(small.sandbox.droppedTransactions).toBe(20);
      const { page, problems } = await openPage();
      await page.goto(small.dashboardUrl);
      await page
        .getByText(
          'Retention: at most 10 transactions; 20 dropped so far (the oldest final ones; pending ones are always kept).',
        )
        .waitFor();
      await expect.poll(() => rows(page).count()).toBe(10);
      expect(problems).toEqual([]);
    } finally {
      await small.close();
    }
  });
});
