/**
 * `npx tsx scripts/dashboard-screenshots.ts`: the dashboard screenshots of docs/ — the overview
 * with 100,000 transactions (and a retention limit that has dropped some) at 1280 px and 390 px,
 * and a transaction's view — taken in headless Chromium (playwright-core).
 */
import { resolve } from 'node:path';
import { seedTransactions } from '../bench/simulator-seed.js';
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
