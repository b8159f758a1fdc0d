/**
 * Child process: the simulator (built dist/testing) on startSandboxServer, webhooks off. With
 * BENCH_FAULT_RULES=N, N fault rules that match every payin.create and never fire (rate 0): the
 * cost of matching and drawing, with the answers unchanged.
 */
import { pathToFileURL } from 'node:url';
import type * as Testing from '../src/testing/index.js';

const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
const rules = Number(process.env.BENCH_FAULT_RULES ?? 0);
const faults = Array.from({ length: rules }, (_, i) => ({
  operation: 'payin.create' as const,
  kind: 'status' as const,
  status: 500 + i,
  rate: 0,
}));
const server = await testing.startSandboxServer({ webhooks: false, seed: 1, faults });
const merchant = server.sandbox.merchants.find((m) => m.country === 'CO')!;
process.send?.({
  port: server.port,
  username: merchant.username,
  password: merchant.password,
  token: merchant.token,
});
process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') void server.close().then(() => process.exit(0));
});
