/**
 * Child process: the simulator (built dist/testing) on startSandboxServer with `SEED`
 * transactions already in it (bench/simulator-seed.ts), webhooks off.
 */
import { pathToFileURL } from 'node:url';
import type * as Testing from '../src/testing/index.js';
import { seedTransactions } from './simulator-seed.js';

const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
const sandbox = testing.createSandbox({ webhooks: false });
const seeded = performance.now();
seedTransactions(sandbox, Number(process.env.SEED ?? 100_000));
const seedMs = performance.now() - seeded;
const server = await testing.startSandboxServer({ sandbox });
process.send?.({ port: server.port, seedMs, transactions: sandbox.transactions.size });
process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') void server.close().then(() => process.exit(0));
});
