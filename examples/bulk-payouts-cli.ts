/**
 * Bulk payouts from a CSV file with the CLI: `payinout payouts send examples/bulk-payouts.csv`,
 * here against a local simulator so it runs anywhere. Validates the file (--dry-run), sends it,
 * sends it again (every row recovered), and prints the results file. Guide: docs/bulk-payouts.md.
 *
 *   npx tsx examples/bulk-payouts-cli.ts
 *
 * In your project: PAYINOUT_USERNAME=… PAYINOUT_PASSWORD=… PAYINOUT_TOKEN=… PAYINOUT_BASE_URL=… \
 *   npx payinout payouts send payouts.csv
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandboxServer } from 'payinout/testing';

const merchant = { username: 'market-co', password: 'market-co-pass', token: 'market-co-token' };
const server = await startSandboxServer({ merchants: [{ ...merchant, country: 'CO', balance: 5_000_000 }] });
const dir = mkdtempSync(join(tmpdir(), 'payinout-example-'));
const results = join(dir, 'june.results.csv');

/** `payinout …` from this repository's source (in your project: `npx payinout …`). */
async function payinout(...args: string[]): Promise<number> {
  // Asynchronous: the simulator in this process must keep answering while the CLI runs.
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PAYINOUT_USERNAME: merchant.username,
      PAYINOUT_PASSWORD: merchant.password,
      PAYINOUT_TOKEN: merchant.token,
      PAYINOUT_BASE_URL: server.url,
    },
  });
  const [code] = (await once(child, 'exit')) as [number | null];
  return code ?? 1;
}

try {
  const file = 'examples/bulk-payouts.csv';
  if ((await payinout('payouts', 'send', file, '--dry-run')) !== 0)
    throw new Error('the example file should be valid');
  if ((await payinout('payouts', 'send', file, '--out', results)) !== 0)
    throw new Error('every row should be sent');
  // Run it again, as after a crash: every row is recovered, nothing is sent twice.
  if ((await payinout('payouts', 'send', file, '--out', results)) !== 0)
    throw new Error('the re-run should succeed');
  const text = readFileSync(results, 'utf8');
  console.log(text);
  if (
    text
      .trim()
      .split('\n')
      .slice(1)
      .some((line) => !line.includes(',recovered,'))
  ) {
    throw new Error('expected every row recovered on the re-run');
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
}
