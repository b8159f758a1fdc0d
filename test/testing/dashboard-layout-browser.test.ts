/**
 * The dashboard's list with rows of realistic length — PayOuts (`PayOut · BANK_TRANSFER`, three
 * confirm buttons: APPROVED, REJECTED, EXPIRED) and PayIns with long references — in real
 * Chromium: at 1280 px every confirm button is on screen without scrolling the list; at 390 px
 * every one is on screen and overlaps neither the status nor another button.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../src/index.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { launchChromium, skipChromium } from '../helpers/chromium.js';
import { CUSTOMER_CO } from './helpers.js';

let browser: Browser;
let server: SandboxServer;

beforeAll(async () => {
  server = await startSandboxServer({ webhooks: false });
  const co = server.sandbox.merchants.find((m) => m.country === 'CO')!;
  const client = new PaymentClient({
    username: co.username,
    password: co.password,
    token: co.token,
    baseUrl: server.url,
  });
  const funding = await client.payin.create({
    reference: 'funding-2025-06-30-initial-deposit-for-payouts',
    amount: 50_000_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'EFECTY',
    description: 'Funding',
    customer_data: CUSTOMER_CO,
  });
  await client.sandbox.confirmPayIn({
    transaction_id: funding.ticket,
    payment_method: 'EFECTY',
    status: 'APPROVED',
  });
  for (let i = 1; i <= 4; i++) {
    await client.payout.create({
      reference: `payout-2025-06-seller-${String(i).padStart(5, '0')}-bancolombia-cuenta-de-ahorros`,
      amount: 12_345_678 + i,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BANK_TRANSFER',
      ipn_url: 'https://shop.example/webhooks/payinout',
      customer_data: {
        ...CUSTOMER_CO,
        bank: 'BANCOLOMBIA',
        account_number: '12345678901',
        account_type: 'AHORRO',
      },
    });
    await client.payin.create({
      reference: `order-2025-06-${100_000 + i}-checkout-breb-qr-marketplace-seller-${i}`,
      amount: 1_150_000 + i,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'Order',
      customer_data: CUSTOMER_CO,
    });
  }
  browser = await launchChromium();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

interface Box {
  text: string;
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Each list row's confirm buttons and status badge, in viewport coordinates. */
async function layout(width: number, height: number) {
  const page = await browser.newPage({ viewport: { width, height } });
  try {
    await page.goto(server.dashboardUrl);
    await page.locator('table.list tbody tr').first().waitFor();
    return await page.evaluate(() => {
      const box = (e: Element): Box => {
        const r = e.getBoundingClientRect();
        return { text: e.textContent ?? '', left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const rows = [...document.querySelectorAll('table.list tbody tr')].map((tr) => ({
        method: tr.querySelector('.c-method')?.textContent ?? '',
        buttons: [...tr.querySelectorAll('td.quick button')].map(box),
        status: box(tr.querySelector('.c-status .badge')!),
        reference: tr.querySelector('.c-ref a')?.getAttribute('title') ?? '',
      }));
      return { rows, viewport: document.documentElement.clientWidth };
    });
  } finally {
    await page.close();
  }
}

const overlaps = (a: Box, b: Box) =>
  a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe.skipIf(skipChromium)('dashboard list with PayOut and PayIn rows of realistic length', () => {
  it.each([
    [1280, 900],
    [390, 844],
  ])(
    'at %i px every confirm button is on screen and overlaps nothing',
    async (width, height) => {
      const { rows, viewport } = await layout(width, height);
      const payouts = rows.filter((r) => r.method.includes('PayOut'));
      expect(payouts.length).toBe(4);
      for (const row of payouts)
        expect(row.buttons.map((b) => b.text)).toEqual(['APPROVED', 'REJECTED', 'EXPIRED']);
      for (const row of rows) {
        for (const button of row.buttons) {
          expect(button.left, `${button.text} of ${row.method}`).toBeGreaterThanOrEqual(0);
          expect(button.right, `${button.text} of ${row.method} at ${width} px`).toBeLessThanOrEqual(
            viewport,
          );
          expect(overlaps(button, row.status), `${button.text} over the status`).toBe(false);
        }
        for (let i = 1; i < row.buttons.length; i++)
          expect(overlaps(row.buttons[i - 1]!, row.buttons[i]!)).toBe(false);
      }
    },
    30_000,
  );
});
