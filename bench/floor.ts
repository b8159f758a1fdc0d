/**
 * Where `payin.create`'s time goes above the wire, layer by layer, sequential on loopback:
 * undici.request, raw node:http (the Node sender's agent settings), payinout's Node sender alone
 * (from src/, as tsx runs it: the same code as dist/), payinout with `validateRequests: false`,
 * and payinout. Each layer does the same request and parses the answer; 3,000 warm-up calls,
 * then ROUNDS (default 10) interleaved rounds × 1,000 calls. `npm run build && npx tsx bench/floor.ts`.
 * Given builds (`npx tsx bench/floor.ts /tmp/before/node/index.js dist/node/index.js`), the two
 * payin.create layers are measured for each of them instead, in the same interleaved rounds: an
 * A/B of builds on the same wire and load.
 */
import { pathToFileURL } from 'node:url';
import { Agent, request } from 'undici';
import type * as Sdk from '../src/index.js';
import { nodeSender } from '../src/node/sender.js';
import { startChild } from './child.js';
import { CREDENTIALS, payinParams } from './fixtures.js';
import { rawNodeHttp } from './raw-node-http.js';
import { measure, type Samples, summarize } from './stats.js';

type Task = () => Promise<unknown>;

function layers(
  sdks: Record<string, typeof Sdk>,
  base: string,
  agent: Agent,
  headers: Record<string, string>,
) {
  const url = `${base}/api/v2/payin`;
  const raw = rawNodeHttp(headers);
  const body = () => JSON.stringify(payinParams);
  const tasks: Record<string, Task> = {
    'undici.request': async () =>
      JSON.parse(
        await (await request(url, { method: 'POST', headers, dispatcher: agent, body: body() })).body.text(),
      ),
    'raw node:http': () => raw.send(url, 'POST', body()),
    "payinout's node:http sender alone": async () => {
      const wire = {
        url,
        method: 'POST',
        headers,
        body: body(),
        signal: undefined,
        timeoutMs: 30_000,
      } as const;
      return JSON.parse((await nodeSender(wire)).text);
    },
  };
  for (const [name, sdk] of Object.entries(sdks)) {
    const client = new sdk.PaymentClient({ ...CREDENTIALS, baseUrl: base });
    const unchecked = new sdk.PaymentClient({ ...CREDENTIALS, baseUrl: base, validateRequests: false });
    tasks[`payin.create, validateRequests: false${name}`] = () => unchecked.payin.create(payinParams);
    tasks[`payin.create${name}`] = () => client.payin.create(payinParams);
  }
  return { tasks, close: raw.close };
}

async function main(): Promise<void> {
  const builds = process.argv.slice(2);
  const sdks: Record<string, typeof Sdk> = {};
  for (const build of builds.length ? builds : ['dist/node/index.js']) {
    const label = builds.length ? ` (${build})` : '';
    sdks[label] = (await import(pathToFileURL(build).href)) as typeof Sdk;
  }
  const server = await startChild('./envelope-server.ts');
  const agent = new Agent({ keepAliveTimeout: 60_000, connections: 64 });
  const headers = {
    authorization: `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`,
    'token-top': CREDENTIALS.token,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const { tasks, close } = layers(sdks, `http://127.0.0.1:${server.port}`, agent, headers);
  const runs: Record<string, Samples> = {};
  for (const task of Object.values(tasks)) await measure(task, { requests: 3_000, concurrency: 1 });
  for (let round = 0; round < Number(process.env.ROUNDS ?? 10); round++) {
    for (const [name, task] of Object.entries(tasks)) {
      runs[name] = await measure(task, { requests: 1_000, concurrency: 1 }, runs[name]);
    }
  }
  print(runs);
  close();
  await agent.close();
  await server.stop();
}

function print(runs: Record<string, Samples>): void {
  const floor = summarize(runs['undici.request']!);
  const raw = summarize(runs['raw node:http']!);
  console.log(
    '| layer | p50 µs | ÷ undici.request | ÷ raw node:http | CPU µs per call |\n|---|--:|--:|--:|--:|',
  );
  for (const [name, samples] of Object.entries(runs)) {
    const s = summarize(samples);
    const ratios = `${(s.p50 / floor.p50).toFixed(2)}× | ${(s.p50 / raw.p50).toFixed(2)}×`;
    console.log(
      `| ${name} | ${(s.p50 * 1000).toFixed(1)} | ${ratios} | ${((s.cpu * 1e6) / s.rps).toFixed(0)} |`,
    );
  }
}

await main();
