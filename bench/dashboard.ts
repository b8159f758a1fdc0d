/**
 * The dashboard with 100,000 transactions in the simulator (its own process): how long the
 * server takes to answer the overview's JSON (first page, a search, a status filter, a deep
 * page), and how long Chromium takes from navigation to the first rows on screen. Skips the
 * browser figure when Chromium is absent.
 */
import { existsSync } from 'node:fs';
import { request } from 'undici';
import { launchChromium } from '../test/helpers/chromium.js';
import { startChild } from './child.js';
import { measure, type Summary, summarize } from './stats.js';

export interface DashboardResult {
  transactions: number;
  seedMs: number;
  /** GET /dashboard/api/state per query, sequential. */
  api: Record<string, Summary & { bytes: number }>;
  /** Navigation to the first row rendered, ms (median of the runs), or undefined without Chromium. */
  browserMs: number[] | undefined;
}

const QUERIES: Record<string, string> = {
  'overview, page 1': '',
  'search "order-15"': 'q=order-15',
  'status PENDING': 'status=PENDING',
  'page 1,000': 'page=1000',
};

export async function benchDashboard({
  seed = 100_000,
  runs = 40,
  loads = 7,
} = {}): Promise<DashboardResult> {
  const server = await startChild('./dashboard-server.ts', { SEED: String(seed) });
  const { seedMs, transactions } = server.extra as { seedMs: number; transactions: number };
  const base = `http://127.0.0.1:${server.port}/dashboard/`;
  const api: DashboardResult['api'] = {};
  for (const [name, query] of Object.entries(QUERIES)) {
    let bytes = 0;
    const get = async () => {
      const res = await request(`${base}api/state?${query}`);
      bytes = (await res.body.arrayBuffer()).byteLength;
    };
    await measure(get, { requests: 5, concurrency: 1 });
    api[name] = { ...summarize(await measure(get, { requests: runs, concurrency: 1 })), bytes };
  }
  const browserMs = existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')
    ? await firstRows(base, loads)
    : undefined;
  await server.stop();
  return { transactions, seedMs, api, browserMs };
}

/** Fresh page per load: navigation start to 50 rows in the table. */
async function firstRows(url: string, loads: number): Promise<number[]> {
  const browser = await launchChromium();
  const times: number[] = [];
  try {
    for (let i = 0; i < loads; i++) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const started = performance.now();
      await page.goto(url);
      await page.locator('table.list tbody tr').nth(49).waitFor();
      times.push(performance.now() - started);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  return times.sort((a, b) => a - b);
}
