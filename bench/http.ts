/**
 * Per-call latency and throughput against the envelope server: raw fetch + JSON.parse,
 * undici.request (the floor), raw node:http (the floor of payinout's Node sender), payinout's payin.create / transactions.get as Node resolves it
 * (node:http sender) and given `fetch` (what Bun, Deno and Workers run), and stripe-node's
 * customers.create / retrieve (its Node HTTP client) as the peer.
 * Sequential runs are interleaved in rounds so that machine drift hits every scenario alike.
 */
import Stripe from 'stripe';
import { Agent, request } from 'undici';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { CREDENTIALS, LOOKUP_ID, payinParams, stripeCustomerParams } from './fixtures.js';
import { type RawNodeHttp, rawNodeHttp } from './raw-node-http.js';
import { measure, type Samples, type Summary, summarize } from './stats.js';

export interface HttpResults {
  sequential: Record<string, Summary>;
  concurrent: Record<string, Summary>;
  serverCpu: number;
}

type Task = () => Promise<unknown>;

interface Options {
  rounds: number;
  perRound: number;
  warmup: number;
  concurrent: number;
  concurrency: number;
}

export async function benchHttp(
  sdk: typeof Sdk,
  { rounds = 4, perRound = 500, warmup = 500, concurrent = 4_000, concurrency = 32 } = {},
): Promise<HttpResults> {
  const server = await startChild('./envelope-server.ts');
  const agent = new Agent({ keepAliveTimeout: 60_000, connections: 64 });
  const nodeHttp = rawNodeHttp(authHeaders());
  const tasks = scenarios(sdk, `http://127.0.0.1:${server.port}`, server.port, agent, nodeHttp.send);
  const options = { rounds, perRound, warmup, concurrent, concurrency };
  for (const task of Object.values(tasks)) await measure(task, { requests: warmup, concurrency: 1 });
  const sequential = await runSequential(tasks, options);
  let [wall, serverCpuMs] = [0, 0];
  const concurrentResults: Record<string, Summary> = {};
  for (const [name, task] of Object.entries(tasks)) {
    await measure(task, { requests: concurrency * 10, concurrency });
    const cpu0 = await server.cpuMs();
    const samples = await measure(task, { requests: concurrent, concurrency });
    serverCpuMs += (await server.cpuMs()) - cpu0;
    wall += samples.elapsedMs;
    concurrentResults[name] = summarize(samples);
  }
  await agent.close();
  nodeHttp.close();
  await server.stop();
  return { sequential, concurrent: concurrentResults, serverCpu: serverCpuMs / wall };
}

/** Rounds of every scenario in turn, so that machine drift hits every scenario alike. */
async function runSequential(
  tasks: Record<string, Task>,
  options: Options,
): Promise<Record<string, Summary>> {
  const seq: Record<string, Samples> = {};
  for (let round = 0; round < options.rounds; round++) {
    for (const [name, task] of Object.entries(tasks)) {
      seq[name] = await measure(task, { requests: options.perRound, concurrency: 1 }, seq[name]);
    }
  }
  const sequential: Record<string, Summary> = {};
  for (const [name, samples] of Object.entries(seq)) sequential[name] = summarize(samples);
  return sequential;
}

/** The headers payinout sends, for the raw scenarios. */
function authHeaders(): Record<string, string> {
  const basic = `Basic ${Buffer.from(`${CREDENTIALS.username}:${CREDENTIALS.password}`).toString('base64')}`;
  return {
    authorization: basic,
    'token-top': CREDENTIALS.token,
    'content-type': 'application/json',
    accept: 'application/json',
  };
}

/** stripe-node as the peer: its Node HTTP client, no retries, no telemetry. */
function stripeClient(port: number): Stripe {
  return new Stripe('sk_test_bench', {
    host: '127.0.0.1',
    port,
    protocol: 'http',
    maxNetworkRetries: 0,
    telemetry: false,
  });
}

/** Each scenario: the same work a merchant would do (stringify the params, parse the answer). */
function scenarios(
  sdk: typeof Sdk,
  base: string,
  port: number,
  agent: Agent,
  rawHttp: RawNodeHttp,
): Record<string, Task> {
  const headers = authHeaders();
  const client = new sdk.PaymentClient({ ...CREDENTIALS, baseUrl: base });
  const onFetch = new sdk.PaymentClient({ ...CREDENTIALS, baseUrl: base, fetch: globalThis.fetch });
  const stripe = stripeClient(port);
  const payinUrl = `${base}/api/v2/payin`;
  const lookupUrl = `${base}/api/v1/transaction/${LOOKUP_ID}`;
  const rawFetch = async (url: string, method: string, body?: string) => {
    const res = await fetch(url, { method, headers, ...(body === undefined ? {} : { body }) });
    return JSON.parse(await res.text());
  };
  // undici.request: the floor the issue's per-call target is measured against.
  const rawUndici = async (url: string, method: 'GET' | 'POST', body?: string) => {
    const res = await request(url, { method, headers, dispatcher: agent, ...(body ? { body } : {}) });
    return JSON.parse(await res.body.text());
  };
  return {
    'fetch POST payin': () => rawFetch(payinUrl, 'POST', JSON.stringify(payinParams)),
    'undici POST payin': () => rawUndici(payinUrl, 'POST', JSON.stringify(payinParams)),
    'node:http POST payin': () => rawHttp(payinUrl, 'POST', JSON.stringify(payinParams)),
    'payinout payin.create': () => client.payin.create(payinParams),
    'payinout on fetch payin.create': () => onFetch.payin.create(payinParams),
    'stripe-node customers.create': () => stripe.customers.create(stripeCustomerParams),
    'fetch GET transaction': () => rawFetch(lookupUrl, 'GET'),
    'undici GET transaction': () => rawUndici(lookupUrl, 'GET'),
    'node:http GET transaction': () => rawHttp(lookupUrl, 'GET'),
    'payinout transactions.get': () => client.transactions.get(LOOKUP_ID),
    'payinout on fetch transactions.get': () => onFetch.transactions.get(LOOKUP_ID),
    'stripe-node customers.retrieve': () => stripe.customers.retrieve('cus_Bench0001'),
  };
}
