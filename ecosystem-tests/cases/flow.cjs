// CommonJS: `require` of the installed package; the shared steps are an ES module.
const payinout = require('payinout');
const testing = require('payinout/testing');

import('./server-flow.mjs')
  .then(async ({ runtimeName, serverFlow }) => {
    const result = await serverFlow(payinout, testing, 'cjs');
    console.log(`RESULT ${JSON.stringify({ runtime: runtimeName(), format: 'cjs', ...result })}`);
  })
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
