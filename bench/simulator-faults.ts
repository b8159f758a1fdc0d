/**
 * The cost of fault rules on the simulator: payin.create over HTTP (undici Pool, 32
 * connections) against a simulator with no rule and with ten rules that match every request
 * and never fire, alternated `rounds` times in one run; medians of throughput, p50 and the
 * simulator process's CPU per request (the steadiest figure on a shared machine).
 *
 *   npm run build && npx tsx bench/simulator-faults.ts [rounds=3] [requests=4000]
 */
import { Pool } from 'undici';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure, median, summarize } from './stats.js';

const rounds = Number(process.argv[2] ?? 3);
const requests = Number(process.argv[3] ?? 4_000);
const concurrency = 32;

async function once(rules: number) {
  const server = await startChild('./simulator-server.ts', { BENCH_FAULT_RULES: String(rules) });
  const creds = server.extra as { username: string; password: string; token: string };
  const pool = new Pool(`http://127.0.0.1:${server.port}`, { connections: concurrency });
  const headers = {
    authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    'token-top': creds.token,
    'content-type': 'application/json',
  };
  let n = 0;
  const create = async () => {
    const body = JSON.stringify({ ...payinParams, reference: `bench-${n++}` });
    const res = await pool.request({ path: '/api/v2/payin', method: 'POST', headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`simulator answered ${res.statusCode}: ${text}`);
  };
  await measure(create, { requests: 1_000, concurrency });
  const cpu0 = await server.cpuMs();
  const summary = summarize(await measure(create, { requests, concurrency }));
  const serverCpuUs = (((await server.cpuMs()) - cpu0) / requests) * 1_000;
  await pool.close();
  await server.stop();
  return { ...summary, serverCpuUs };
}

const results = new Map<number, Awaited<ReturnType<typeof once>>[]>([
  [0, []],
  [10, []],
]);
for (let round = 0; round < rounds; round++) {
  for (const rules of results.keys()) results.get(rules)!.push(await once(rules));
}
for (const [rules, runs] of results) {
  const rps = median(runs.map((r) => r.rps)).toFixed(0);
  const p50 = median(runs.map((r) => r.p50)).toFixed(2);
  const cpu = median(runs.map((r) => r.serverCpuUs)).toFixed(1);
  console.log(`${rules} rules: ${rps} req/s, p50 ${p50} ms, simulator CPU ${cpu} µs per request`);
}
