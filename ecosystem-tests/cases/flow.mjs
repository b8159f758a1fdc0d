// ESM: `import` of the installed package (Node, Bun, Deno).
import * as payinout from 'payinout';
import * as testing from 'payinout/testing';
import { runtimeName, serverFlow } from './server-flow.mjs';

const result = await serverFlow(payinout, testing, 'esm');
console.log(`RESULT ${JSON.stringify({ runtime: runtimeName(), format: 'esm', ...result })}`);
