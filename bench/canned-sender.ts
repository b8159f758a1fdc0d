/**
 * The SDK's own CPU per call above the wire, per kind of call: the Node entry's PaymentClient
 * with its `node:http` sender swapped for a canned one (same answer bytes as the envelope
 * server), 64 in flight, interleaved rounds × 10,000 calls per build, medians. Calls:
 * `payin.create` (and again with `validateRequests: false`: request validation's share),
 * `transactions.get`, a `transactions.get` answered 404, and each `get` again with
 * OpenTelemetry's no-op tracer (tracing off).
 * `npx tsx bench/canned-sender.ts before/dist/node/index.js dist/node/index.js` (ROUNDS=n).
 */
import { pathToFileURL } from 'node:url';
import { ProxyTracerProvider } from '@opentelemetry/api';
import type * as Sdk from '../src/index.js';
import { cannedClient, cpuPerCall } from './canned-client.js';
import { LOOKUP_ID, payinParams } from './fixtures.js';

type Task = () => Promise<unknown>;

function tasksOf(sdk: typeof Sdk): Record<string, Task> {
  const plain = cannedClient(sdk);
  const noop = cannedClient(sdk, { tracer: new ProxyTracerProvider().getTracer('payinout') });
  const unchecked = cannedClient(sdk, { validateRequests: false });
  const tasks: Record<string, Task> = {
    'payin.create': () => plain.payin.create(payinParams),
    // Beside the row above: request validation's share of a create.
    'payin.create, validateRequests: false': () => unchecked.payin.create(payinParams),
    'payin.create, no-op tracer': () => noop.payin.create(payinParams),
    'transactions.get': () => plain.transactions.get(LOOKUP_ID),
    'transactions.get, no-op tracer': () => noop.transactions.get(LOOKUP_ID),
    'transactions.get 404': () => plain.transactions.get('missing').catch(() => undefined),
  };
  // ONLY=name runs one kind of call (for a profile: node --cpu-prof --import tsx bench/canned-sender.ts).
  const only = process.env.ONLY;
  return only ? { [only]: tasks[only]! } : tasks;
}

const targets = process.argv.length > 2 ? process.argv.slice(2) : ['dist/node/index.js'];
const builds = await Promise.all(
  targets.map(async (t) => tasksOf((await import(pathToFileURL(t).href)) as typeof Sdk)),
);
const rounds = Number(process.env.ROUNDS ?? 7);
const results = new Map<string, number[]>();
for (const tasks of builds) for (const task of Object.values(tasks)) await cpuPerCall(task, 5_000);
for (let round = 0; round < rounds; round++) {
  for (const [b, tasks] of builds.entries()) {
    for (const [name, task] of Object.entries(tasks)) {
      const key = `${targets[b]}\t${name}`;
      results.set(key, [...(results.get(key) ?? []), await cpuPerCall(task, 10_000)]);
    }
  }
}
const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
console.log(`SDK CPU per call above a canned sender (median of ${rounds} rounds × 10,000, c64):`);
for (const [key, values] of results) console.log(`  ${key}: ${med(values).toFixed(2)} µs`);
