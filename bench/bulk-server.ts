/** Child process: the simulator (built dist/testing) with one funded CO merchant, for PayOut batches. */
import { pathToFileURL } from 'node:url';
import type * as Testing from '../src/testing/index.js';

const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
const merchant = { username: 'bench-bulk', password: 'bench-bulk-pass', token: 'bench-bulk-token' };
const server = await testing.startSandboxServer({
  webhooks: false,
  merchants: [{ ...merchant, country: 'CO', balance: 1e15 }],
});
process.send?.({ port: server.port, ...merchant });
process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
process.on('message', (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  if (message === 'exit') void server.close().then(() => process.exit(0));
});
