/**
 * Memory of `payinout sandbox` under a burst of confirms (issue "simulator survives abuse"):
 * 10,000 BREB PayIns created, then 10,000 sandbox confirms sent at once, each firing a webhook
 * to a loopback receiver that answers after 50 ms. Prints the simulator's RSS before and after
 * and its peak (VmHWM), for a bounded queue and for a near-unbounded one, so the two compare
 * in one run. Loopback only. Run: `npx tsx bench/webhook-burst.ts [count]` (not in npm test).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, setGlobalDispatcher } from 'undici';

const COUNT = Number(process.argv[2] ?? 10_000);
setGlobalDispatcher(new Agent({ connections: 64 }));

const receiver = createServer((req, res) => {
  req.resume();
  req.on('end', () => setTimeout(() => res.writeHead(200).end('ok'), 50));
});
receiver.maxConnections = 100_000;
await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
const ipn = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ipn`;

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
};

async function run(concurrency: number) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src/cli/index.ts',
      'sandbox',
      '--port',
      '0',
      '--webhook-concurrency',
      String(concurrency),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  const baseUrl = await new Promise<string>((ok) =>
    child.stdout!.on('data', (c) => {
      out += c;
      const m = /^base_url=(\S+)$/m.exec(out);
      if (m && out.includes('PAYINOUT_ENVIRONMENT')) ok(m[1]!);
    }),
  );
  const headers = {
    authorization: `Basic ${Buffer.from('demo-co:demo-co-pass').toString('base64')}`,
    'token-top': 'demo-co-token',
    'content-type': 'application/json',
  };
  const post = (path: string, body: unknown) =>
    fetch(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then(
      (r) => r.json() as Promise<{ data: { ticket: string } }>,
    );
  const customer_data = {
    legal_doc_type: 'CC',
    legal_doc: '1020304050',
    phone_code: '57',
    phone_number: '3001234567',
    email: 'ana@example.com',
    full_name: 'Ana Gomez',
  };
  const tickets: string[] = [];
  for (let i = 0; i < COUNT; i += 500) {
    const batch = Array.from({ length: Math.min(500, COUNT - i) }, (_, j) =>
      post('/api/v2/payin', {
        reference: `burst-${i + j}`,
        amount: 1000,
        currency: 'COP',
        country: 'CO',
        payment_method: 'BREB',
        description: 'burst',
        customer_data,
        ipn_url: ipn,
      }).then((r) => r.data.ticket),
    );
    tickets.push(...(await Promise.all(batch)));
  }
  global.gc?.();
  await new Promise((ok) => setTimeout(ok, 500));
  const before = memory(child.pid!);
  const started = Date.now();
  await Promise.all(
    tickets.map((t) =>
      post('/api/v1/sandbox/payin/confirm', {
        transaction_id: t,
        payment_method: 'BREB',
        status: 'APPROVED',
      }),
    ),
  );
  await new Promise((ok) => setTimeout(ok, 2_000));
  const after = memory(child.pid!);
  child.kill('SIGTERM');
  return { concurrency, before, after, ms: Date.now() - started };
}

const mb = (n: number) => `${n.toFixed(0)} MB`;
console.log(`| webhook concurrency | RSS before burst | RSS after | peak RSS |`);
console.log(`|---|---|---|---|`);
for (const concurrency of [16, 1024]) {
  const r = await run(concurrency);
  console.log(`| ${r.concurrency} | ${mb(r.before.rss)} | ${mb(r.after.rss)} | ${mb(r.after.peak)} |`);
}
receiver.close();
process.exit(0);
