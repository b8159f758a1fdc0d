/**
 * Client CPU per call under load: 64 concurrent `payin.create` against the simulator (its own
 * process), in µs of this process's CPU (user + system) per call, beside raw fetch doing the same
 * request with a prebuilt body. `tsx bench/client-cpu.ts [path/to/dist/index.js]` compares builds.
 */
import { pathToFileURL } from 'node:url';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure } from './stats.js';

export interface ClientCpu {
  /** µs of client CPU per call. */
  fetch: number;
  payinout: number;
  rps: { fetch: number; payinout: number };
}

export async function benchClientCpu(
  sdk: typeof Sdk,
  { requests = 6_000, concurrency = 64, rounds = 3 } = {},
): Promise<ClientCpu> {
  const server = await startChild('./simulator-server.ts');
  const creds = server.extra as { username: string; password: string; token: string };
  const base = `http://127.0.0.1:${server.port}`;
  const headers = {
    authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    'token-top': creds.token,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  let n = 0;
  const viaFetch = async () => {
    const body = JSON.stringify({ ...payinParams, reference: `cpu-f-${n++}` });
    const res = await fetch(`${base}/api/v2/payin`, { method: 'POST', headers, body });
    const json = JSON.parse(await res.text());
    if (res.status !== 200) throw new Error(`simulator answered ${res.status}: ${JSON.stringify(json)}`);
  };
  const client = new sdk.PaymentClient({ ...creds, baseUrl: base });
  const viaClient = () => client.payin.create({ ...payinParams, reference: `cpu-c-${n++}` });
  const tasks = { fetch: viaFetch, payinout: viaClient };
  const cpu = { fetch: [] as number[], payinout: [] as number[] };
  const rps = { fetch: [] as number[], payinout: [] as number[] };
  for (const task of Object.values(tasks)) await measure(task, { requests: 1_000, concurrency });
  for (let round = 0; round < rounds; round++) {
    for (const [name, task] of Object.entries(tasks) as Array<[keyof typeof tasks, () => Promise<unknown>]>) {
      const samples = await measure(task, { requests, concurrency });
      cpu[name].push((samples.cpuMs * 1000) / requests);
      rps[name].push((requests / samples.elapsedMs) * 1000);
    }
  }
  await server.stop();
  const med = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return {
    fetch: med(cpu.fetch),
    payinout: med(cpu.payinout),
    rps: { fetch: med(rps.fetch), payinout: med(rps.payinout) },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const target = process.argv[2] ?? 'dist/index.js';
  const sdk = (await import(pathToFileURL(target).href)) as typeof Sdk;
  const result = await benchClientCpu(sdk);
  console.log(
    `${target}: client CPU per payin.create at concurrency 64: payinout ${result.payinout.toFixed(0)} µs, raw fetch ${result.fetch.toFixed(0)} µs; req/s payinout ${result.rps.payinout.toFixed(0)}, fetch ${result.rps.fetch.toFixed(0)}`,
  );
}
