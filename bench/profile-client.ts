/**
 * Profiles the client alone: 64 concurrent `payin.create` against the simulator (its own process).
 * `node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/profile-client.ts [dist/index.js]`,
 * then open the .cpuprofile in Chrome DevTools or summarise it with `tsx bench/profile-summary.ts`.
 */
import { pathToFileURL } from 'node:url';
import type * as Sdk from '../src/index.js';
import { startChild } from './child.js';
import { payinParams } from './fixtures.js';
import { measure } from './stats.js';

const target = process.argv[2] ?? 'dist/node/index.js'; // what Node resolves 'payinout' to
const sdk = (await import(pathToFileURL(target).href)) as typeof Sdk;
const server = await startChild('./simulator-server.ts');
const creds = server.extra as { username: string; password: string; token: string };
const client = new sdk.PaymentClient({ ...creds, baseUrl: `http://127.0.0.1:${server.port}` });
let n = 0;
const task = () => client.payin.create({ ...payinParams, reference: `prof-${n++}` });
await measure(task, { requests: 1_000, concurrency: 64 });
const samples = await measure(task, { requests: 10_000, concurrency: 64 });
console.log(`client CPU per call: ${((samples.cpuMs * 1000) / 10_000).toFixed(0)} µs`);
await server.stop();
