/**
 * Simulator throughput over HTTP for payin.create: the simulator in its own process, a lean
 * load generator here (undici Pool, 32 connections, prebuilt body), then payinout itself.
 * Every create has a fresh reference (the simulator refuses duplicates).
 */
import { Pool } from 'undici';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure, type Summary, summarize } from './stats.js';

export interface SimulatorResult {
  lean: Summary & { serverCpu: number };
  client: Summary & { serverCpu: number };
}

export async function benchSimulator(
  sdk: typeof Sdk,
  { requests = 6_000, concurrency = 32 } = {},
): Promise<SimulatorResult> {
  const server = await startChild('./simulator-server.ts');
  const creds = server.extra as { username: string; password: string; token: string };
  const base = `http://127.0.0.1:${server.port}`;
  const pool = new Pool(base, { connections: concurrency, keepAliveTimeout: 60_000 });
  const headers = {
    authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    'token-top': creds.token,
    'content-type': 'application/json',
  };
  const [head, tail] = JSON.stringify({ ...payinParams, reference: '@REF@' }).split('@REF@') as [
    string,
    string,
  ];
  let n = 0;
  const lean = async () => {
    const body = `${head}bench-${n++}${tail}`;
    const res = await pool.request({ path: '/api/v2/payin', method: 'POST', headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200) throw new Error(`simulator answered ${res.statusCode}: ${text}`);
  };
  const client = new sdk.PaymentClient({ ...creds, baseUrl: base });
  const viaClient = () => client.payin.create({ ...payinParams, reference: `bench-${n++}` });

  const run = async (task: () => Promise<unknown>) => {
    await measure(task, { requests: 1_000, concurrency });
    const cpu0 = await server.cpuMs();
    const samples = await measure(task, { requests, concurrency });
    const serverCpu = ((await server.cpuMs()) - cpu0) / samples.elapsedMs;
    return { ...summarize(samples), serverCpu };
  };
  const result = { lean: await run(lean), client: await run(viaClient) };
  await pool.close();
  await server.stop();
  return result;
}
