/**
 * Where a `payin.create`'s client CPU goes at concurrency 64, layer by layer, against the
 * simulator (its own process), as bench/client-cpu.ts measures it: raw `node:http` (a keep-alive
 * agent, as client-cpu.ts), raw `node:http` on the Node sender's agent settings (4 s idle
 * timeout), payinout's Node sender alone (given senders: `src/node/sender.ts` of each tree),
 * and the client with and without request validation (given builds). Interleaved rounds, medians.
 * `npx tsx bench/cpu-layers.ts --sender .tmp/before-src/node/sender.ts --sender src/node/sender.ts \
 *   .tmp/before/dist/node/index.js dist/node/index.js` (ROUNDS=n, default 5).
 */
import http from 'node:http';
import { pathToFileURL } from 'node:url';
import type { Sender } from '../src/core/sender.js';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure } from './stats.js';

type Task = () => Promise<unknown>;
const args = process.argv.slice(2);
const senders = args.flatMap((a, i) => (args[i - 1] === '--sender' ? [a] : []));
const builds = args.filter((a, i) => a !== '--sender' && args[i - 1] !== '--sender');

const server = await startChild('./simulator-server.ts');
const creds = server.extra as { username: string; password: string; token: string };
const base = `http://127.0.0.1:${server.port}`;
const url = `${base}/api/v2/payin`;
const headers = {
  authorization: `Basic ${Buffer.from(`${creds.username}:${creds.password}`).toString('base64')}`,
  'token-top': creds.token,
  'content-type': 'application/json',
  accept: 'application/json',
};
let n = 0;
const body = (tag: string) => JSON.stringify({ ...payinParams, reference: `layers-${tag}-${n++}` });
const check = (status: number | undefined, text: string) => {
  const json = JSON.parse(text);
  if (status !== 200) throw new Error(`simulator answered ${status}: ${JSON.stringify(json)}`);
};

function raw(agent: http.Agent): Task {
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const sent = body('h');
      const req = http.request(url, {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-length': String(Buffer.byteLength(sent)) },
      });
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(check(res.statusCode, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.on('error', reject).end(sent);
    });
  // A keep-alive socket the server closed while idle resets before any answer: sent once more.
  return () =>
    once().catch((error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? once() : Promise.reject(error),
    );
}

const tasks: Record<string, Task> = {
  'raw node:http': raw(new http.Agent({ keepAlive: true })),
  'raw node:http, 4 s idle timeout': raw(new http.Agent({ keepAlive: true, timeout: 4_000 })),
};
for (const file of senders) {
  const { nodeSender } = (await import(pathToFileURL(file).href)) as { nodeSender: Sender };
  tasks[`sender alone (${file})`] = async () => {
    const wire = {
      url,
      method: 'POST',
      headers,
      body: body('s'),
      signal: undefined,
      timeoutMs: 30_000,
    } as const;
    const answer = await nodeSender(wire);
    check(answer.status, answer.text);
  };
}
for (const file of builds) {
  const sdk = (await import(pathToFileURL(file).href)) as typeof Sdk;
  const client = new sdk.PaymentClient({ ...creds, baseUrl: base });
  const unchecked = new sdk.PaymentClient({ ...creds, baseUrl: base, validateRequests: false });
  tasks[`payin.create, validateRequests: false (${file})`] = () =>
    unchecked.payin.create({ ...payinParams, reference: `layers-u-${n++}` });
  tasks[`payin.create (${file})`] = () =>
    client.payin.create({ ...payinParams, reference: `layers-c-${n++}` });
}

const cpu = new Map<string, number[]>();
for (const task of Object.values(tasks)) await measure(task, { requests: 1_000, concurrency: 64 });
for (let round = 0; round < Number(process.env.ROUNDS ?? 5); round++) {
  for (const [name, task] of Object.entries(tasks)) {
    const samples = await measure(task, { requests: 5_000, concurrency: 64 });
    cpu.set(name, [...(cpu.get(name) ?? []), (samples.cpuMs * 1000) / 5_000]);
  }
}
await server.stop();
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
const floor = med(cpu.get('raw node:http')!);
console.log('| layer (c64, simulator) | CPU µs per call | ÷ raw node:http |\n|---|--:|--:|');
for (const [name, values] of cpu)
  console.log(`| ${name} | ${med(values).toFixed(1)} | ${(med(values) / floor).toFixed(2)}× |`);
