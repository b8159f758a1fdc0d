/**
 * Client CPU per call under load: 64 concurrent `payin.create` against the simulator (its own
 * process), in µs of this process's CPU (user + system) per call, beside raw fetch and raw
 * `node:http` (keep-alive agent) doing the same request with a prebuilt body. Each build runs as
 * Node resolves it (node:http sender) and given `fetch` (what Bun, Deno and Workers run).
 * `tsx bench/client-cpu.ts before/dist/node/index.js dist/node/index.js` compares builds in one
 * session, interleaved round by round (ROUNDS=n sets the number of rounds).
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure } from './stats.js';

export interface CpuRow {
  name: string;
  /** µs of client CPU per call (median of the rounds). */
  micros: number;
  rps: number;
}

type Task = () => Promise<unknown>;

export async function benchClientCpu(
  sdks: Record<string, typeof Sdk>,
  { requests = 6_000, concurrency = 64, rounds = 3 } = {},
): Promise<CpuRow[]> {
  const server = await startChild('./simulator-server.ts');
  const creds = server.extra as { username: string; password: string; token: string };
  const base = `http://127.0.0.1:${server.port}`;
  let n = 0;
  const tasks: Record<string, Task> = { ...rawTasks(base, creds, () => n++) };
  for (const [name, sdk] of Object.entries(sdks)) {
    const client = new sdk.PaymentClient({ ...creds, baseUrl: base });
    const onFetch = new sdk.PaymentClient({ ...creds, baseUrl: base, fetch: globalThis.fetch });
    tasks[`${name} payin.create`] = () => client.payin.create({ ...payinParams, reference: `cpu-c-${n++}` });
    tasks[`${name} on fetch`] = () => onFetch.payin.create({ ...payinParams, reference: `cpu-c-${n++}` });
  }
  const cpu = new Map<string, number[]>();
  const rps = new Map<string, number[]>();
  for (const task of Object.values(tasks)) await measure(task, { requests: 1_000, concurrency });
  for (let round = 0; round < rounds; round++) {
    for (const [name, task] of Object.entries(tasks)) {
      const samples = await measure(task, { requests, concurrency });
      cpu.set(name, [...(cpu.get(name) ?? []), (samples.cpuMs * 1000) / requests]);
      rps.set(name, [...(rps.get(name) ?? []), (requests / samples.elapsedMs) * 1000]);
    }
  }
  await server.stop();
  const med = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  return Object.keys(tasks).map((name) => ({ name, micros: med(cpu.get(name)!), rps: med(rps.get(name)!) }));
}

/** The same POST with a prebuilt body and headers, over fetch and over node:http. */
function rawTasks(
  base: string,
  creds: { username: string; password: string; token: string },
  next: () => number,
): Record<string, Task> {
  const headers = {
    authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
    'token-top': creds.token,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const check = (status: number | undefined, text: string) => {
    const json = JSON.parse(text);
    if (status !== 200) throw new Error(`simulator answered ${status}: ${JSON.stringify(json)}`);
  };
  const agent = new http.Agent({ keepAlive: true });
  const url = `${base}/api/v2/payin`;
  return {
    'raw fetch': async () => {
      const body = JSON.stringify({ ...payinParams, reference: `cpu-f-${next()}` });
      const res = await fetch(url, { method: 'POST', headers, body });
      check(res.status, await res.text());
    },
    // A keep-alive socket the server closed while idle resets before any response byte: sent
    // again once, as any client (payinout's node:http sender included) does.
    'raw node:http': () =>
      viaHttp().catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ECONNRESET') throw error;
        return viaHttp();
      }),
  };

  function viaHttp(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const body = JSON.stringify({ ...payinParams, reference: `cpu-h-${next()}` });
      const length = String(Buffer.byteLength(body));
      const req = http.request(url, {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': length },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve(check(res.statusCode, text))).on('error', reject);
      });
      req.on('error', reject).end(body);
    });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const targets = process.argv.length > 2 ? process.argv.slice(2) : ['dist/node/index.js'];
  const sdks: Record<string, typeof Sdk> = {};
  for (const target of targets) sdks[target] = (await import(pathToFileURL(target).href)) as typeof Sdk;
  const rounds = Number(process.env.ROUNDS ?? 3);
  const rows = await benchClientCpu(sdks, { rounds });
  const fetchMicros = rows[0]!.micros;
  console.log(`client CPU per payin.create at concurrency 64 (median of ${rounds} rounds):`);
  for (const row of rows) {
    console.log(
      `  ${row.name}: ${row.micros.toFixed(0)} µs (${(row.micros / fetchMicros).toFixed(2)}× raw fetch), ${row.rps.toFixed(0)} req/s`,
    );
  }
}
