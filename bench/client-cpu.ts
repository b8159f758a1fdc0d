/**
 * Client CPU per call under load: 64 concurrent `payin.create` against the simulator (its own
 * process), in µs of this process's CPU (user + system) per call, beside raw fetch doing the same
 * request with a prebuilt body. `tsx bench/client-cpu.ts before/dist/index.js dist/index.js` compares
 * builds in one session, interleaved round by round (ROUNDS=n sets the number of rounds).
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
  options: { requests?: number; concurrency?: number; rounds?: number } = {},
): Promise<ClientCpu> {
  const [result] = await benchClientCpuOf([sdk], options);
  return result!;
}

/**
 * Several builds (e.g. before and after a change) measured in one session: each round runs raw
 * fetch, then every build in turn, so machine load drifts over all of them alike.
 */
export async function benchClientCpuOf(
  sdks: ReadonlyArray<typeof Sdk>,
  { requests = 6_000, concurrency = 64, rounds = 3 } = {},
): Promise<ClientCpu[]> {
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
  const viaClients = sdks.map((sdk) => {
    const client = new sdk.PaymentClient({ ...creds, baseUrl: base });
    return () => client.payin.create({ ...payinParams, reference: `cpu-c-${n++}` });
  });
  const tasks = [viaFetch, ...viaClients];
  const cpu = tasks.map(() => [] as number[]);
  const rps = tasks.map(() => [] as number[]);
  for (const task of tasks) await measure(task, { requests: 1_000, concurrency });
  for (let round = 0; round < rounds; round++) {
    for (const [i, task] of tasks.entries()) {
      const samples = await measure(task, { requests, concurrency });
      cpu[i]!.push((samples.cpuMs * 1000) / requests);
      rps[i]!.push((requests / samples.elapsedMs) * 1000);
    }
  }
  await server.stop();
  const med = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return viaClients.map((_, i) => ({
    fetch: med(cpu[0]!),
    payinout: med(cpu[i + 1]!),
    rps: { fetch: med(rps[0]!), payinout: med(rps[i + 1]!) },
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : ['dist/index.js'];
  const sdks = await Promise.all(
    targets.map(async (target) => (await import(pathToFileURL(target).href)) as typeof Sdk),
  );
  const rounds = Number(process.env.ROUNDS ?? 3);
  const results = await benchClientCpuOf(sdks, { rounds });
  console.log(
    `client CPU per payin.create at concurrency 64 (median of ${rounds} rounds): raw fetch ${results[0]!.fetch.toFixed(0)} µs, ${results[0]!.rps.fetch.toFixed(0)} req/s`,
  );
  for (const [i, result] of results.entries()) {
    console.log(
      `${targets[i]}: payinout ${result.payinout.toFixed(0)} µs (${(result.payinout / result.fetch).toFixed(2)}× fetch), ${result.rps.payinout.toFixed(0)} req/s`,
    );
  }
}
