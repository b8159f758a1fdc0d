/**
 * Profiles the client alone: 64 concurrent calls against the simulator (its own process).
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-client.ts [dist/node/index.js] [call]`,
 * then open the .cpuprofile in Chrome DevTools or summarise it with `tsx bench/profile-summary.ts`.
 * call: `create` (default), `get`, `get404` (a lookup the simulator answers 404), `get-noop`
 * (`get` with OpenTelemetry's no-op tracer: tracing off).
 */
import { pathToFileURL } from 'node:url';
import { ProxyTracerProvider } from '@opentelemetry/api';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure } from './stats.js';

const target = process.argv[2] ?? 'dist/node/index.js'; // what Node resolves 'payinout' to
const call = process.argv[3] ?? 'create';
const sdk = (await import(pathToFileURL(target).href)) as typeof Sdk;
const server = await startChild('./simulator-server.ts');
const creds = server.extra as { username: string; password: string; token: string };
const tracer = call.endsWith('-noop') ? { tracer: new ProxyTracerProvider().getTracer('payinout') } : {};
const client = new sdk.PaymentClient({ ...creds, baseUrl: `http://127.0.0.1:${server.port}`, ...tracer });
let n = 0;
const created = await client.payin.create({ ...payinParams, reference: `prof-seed-${Date.now()}` });
const tasks: Record<string, () => Promise<unknown>> = {
  create: () => client.payin.create({ ...payinParams, reference: `prof-${n++}` }),
  get: () => client.transactions.get(created.ticket),
  get404: () => client.transactions.get('00000000-0000-4000-8000-000000000000').catch(() => undefined),
};
const task = tasks[call.replace(/-noop$/, '')];
if (!task)
  throw new Error(
    `unknown call ${call}: one of ${Object.keys(tasks).join(', ')} (add -noop for a no-op tracer)`,
  );
await measure(task, { requests: 1_000, concurrency: 64 });
const samples = await measure(task, { requests: 10_000, concurrency: 64 });
console.log(`${call}: client CPU per call: ${((samples.cpuMs * 1000) / 10_000).toFixed(0)} µs`);
await server.stop();
