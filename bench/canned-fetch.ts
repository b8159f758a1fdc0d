/**
 * The SDK's own CPU per `payin.create`, without a network: a canned `fetch` answers every call,
 * 64 in flight, 7 interleaved rounds × 10,000 calls per build, medians. Beside it, the canned
 * answer read by hand (the floor). `tsx bench/canned-fetch.ts before/dist/index.js dist/index.js`.
 */
import { pathToFileURL } from 'node:url';
import { cpuPerCall } from './canned-client.js';
import { payinEnvelope, payinParams } from './fixtures.js';

const targets = process.argv.slice(2);
const sdks = await Promise.all(targets.map((t) => import(pathToFileURL(t).href)));
const fakeFetch = async (_url: unknown, init?: RequestInit) => {
  if (init?.body === undefined) throw new Error('no body');
  return new Response(payinEnvelope, { status: 200, headers: { 'content-type': 'application/json' } });
};
const clients = sdks.map(
  (sdk) =>
    new sdk.PaymentClient({
      username: 'u',
      password: 'pass-1234',
      token: 'tok-1234',
      baseUrl: 'http://127.0.0.1:1',
      fetch: fakeFetch,
    }),
);
const baseline = async () => {
  await fakeFetch('x', { method: 'POST', body: JSON.stringify(payinParams) })
    .then((r) => r.text())
    .then(JSON.parse);
};
const res: number[][] = [[], ...clients.map(() => [])];
for (let round = 0; round < 7; round++) {
  res[0]!.push(await cpuPerCall(baseline, 10000));
  for (const [i, client] of clients.entries())
    res[i + 1]!.push(await cpuPerCall(() => client.payin.create(payinParams), 10000));
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
console.log(`fake fetch alone ${med(res[0]!).toFixed(1)} µs`);
for (const [i, t] of targets.entries()) {
  console.log(`${t}: ${med(res[i + 1]!).toFixed(1)} µs per payin.create (no network)`);
}
