/**
 * What the host scripts share: the app directory run.mjs installed the packed package into
 * (argv[2]), the simulator from that installed package, and the checks of cases/money-flow.mjs.
 */
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const app = resolve(process.argv[2] ?? '.');
const fromApp = createRequire(join(app, 'package.json'));

/** startSandboxServer() of the installed payinout/testing (the host side of a case). */
export async function startSimulator() {
  return fromApp('payinout/testing').startSandboxServer();
}

const shared = await import(pathToFileURL(join(app, 'money-flow.mjs')).href);
export const { check, deliveryHeaders } = shared;
