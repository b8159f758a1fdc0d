/**
 * Child process: the simulator (built dist/testing) with one funded CO merchant, for PayOut
 * batches. It counts the API requests it answers ('requests' over IPC), so the queue bench can
 * say how many HTTP requests each settled PayOut cost; BENCH_CREATE_DELAY_MS holds every
 * payout.create that long (the queue bench's lock measurements need jobs held in flight).
 */
import { pathToFileURL } from 'node:url';
import type * as Testing from '../src/testing/index.js';

const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
const merchant = { username: 'bench-bulk', password: 'bench-bulk-pass', token: 'bench-bulk-token' };
const delayMs = Number(process.env.BENCH_CREATE_DELAY_MS ?? 0);
let requests = 0;
const server = await testing.startSandboxServer({
  webhooks: false,
  merchants: [{ ...merchant, country: 'CO', balance: 1e15 }],
  ...(delayMs > 0 ? { faults: [{ operation: 'payout.create', kind: 'delay', ms: delayMs, rate: 1 }] } : {}),
  onRequest: () => {
    requests++;
  },
});
process.send?.({ port: server.port, ...merchant });
process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'requests') process.send?.({ requests });
  if (message === 'exit') void server.close().then(() => process.exit(0));
});
