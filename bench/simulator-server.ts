/** Child process: the simulator (built dist/testing) on startSandboxServer, webhooks off. */
import { pathToFileURL } from 'node:url';
import type * as Testing from '../src/testing/index.js';

const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
const server = await testing.startSandboxServer({ webhooks: false });
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
