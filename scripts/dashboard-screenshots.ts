/**
 * `npx tsx scripts/dashboard-screenshots.ts`: the dashboard screenshots of docs/ — the overview
 * with 100,000 transactions (and a retention limit that has dropped some) at 1280 px and 390 px,
 * the newest rows PayOuts and PayIns of realistic length (a PayOut offers three confirm buttons)
 * — taken in headless Chromium (playwright-core).
 */
import { resolve } from 'node:path';
import { seedTransactions } from '../bench/simulator-seed.js';
import { PaymentClient } from '../src/index.js';
import { createSandbox, startSandboxServer } from '../src/testing/index.js';
import { launchChromium } from '../test/helpers/chromium.js';

const OUT = resolve(process.argv[2] ?? 'docs');
const sandbox = createSandbox({ webhooks: false, maxTransactions: 100_000 });
const started = performance.now();
seedTransactions(sandbox, 102_500);
console.log(
  `seeded ${sandbox.transactions.size} (dropped ${sandbox.droppedTransactions}) in ${Math.round(performance.now() - started)} ms`,
);
const server = await startSandboxServer({ sandbox });
await newestRows();
const browser = await launchChromium();
try {
  for (const [name, width, height] of [
    ['simulator-dashboard.png', 1280, 1000],
    ['simulator-dashboard-narrow.png', 390, 844],
  ] as const) {
    const page = await browser.newPage({
      viewport: { width, height },
      deviceScaleFactor: width < 500 ? 2 : 1,
    });
    await page.goto(server.dashboardUrl);
    await page.locator('table.list tbody tr').first().waitFor();
    await page.screenshot({ path: resolve(OUT, name) });
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

/** What a merchant's first week leaves on top: PayOuts to sellers' accounts between checkout PayIns. */
async function newestRows(): Promise<void> {
  const co = sandbox.merchants.find((m) => m.country === 'CO')!;
  const client = new PaymentClient({
    username: co.username,
    password: co.password,
    token: co.token,
    baseUrl: server.url,
  });
  const customer = {
    legal_doc: '900123456',
    phone_code: '57',
    phone_number: '6015550101',
    email: 'pagos@ferreteria.example',
    full_name: 'Ferretería El Tornillo SAS',
  };
  for (let i = 1; i <= 6; i++) {
    const payout = await client.payout.create({
      reference: `payout-2025-06-seller-${String(i).padStart(5, '0')}-bancolombia-ahorros`,
      amount: 1_234_500 + i * 1_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BANK_TRANSFER',
      ipn_url: 'https://shop.example/webhooks/payinout',
      customer_data: {
        ...customer,
        legal_doc_type: 'NIT',
        bank: 'BANCOLOMBIA',
        account_number: '12345678901',
        account_type: 'AHORRO',
      },
    });
    if (i === 2)
      await client.sandbox.confirmPayOut({
        transaction_id: payout.ticket,
        payment_method: 'BANK_TRANSFER',
        status: 'APPROVED',
      });
    await client.payin.create({
      reference: `order-2025-06-${100_200 + i}-checkout-breb`,
      amount: 150_000 + i * 990,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'Order',
      customer_data: {
        ...customer,
        legal_doc: '1020304050',
        legal_doc_type: 'CC',
        full_name: 'Ana María Pérez',
      },
    });
  }
}
