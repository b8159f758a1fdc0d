/**
 * A bundler consumer: esbuild on the neutral platform (no Node assumptions, as for a browser,
 * an edge function or a worker) bundles each way of using the installed package, and the
 * Node built-ins each pulls in are compared with README "Requirements": the main entry and
 * payinout/redis need none on any path; payinout/testing needs only the ones listed there.
 * Run by run.mjs: `node hosts/bundler.mjs APP_DIR`.
 */
import { build } from 'esbuild';
import { app, check } from './app.mjs';

const NONE = [];
// README "Requirements": what payinout/testing loads (the simulator's server and its ids).
const TESTING = ['node:crypto', 'node:http', 'node:module', 'node:net'];
const USES = [
  ['payinout: PaymentClient', "import { PaymentClient } from 'payinout'; use(PaymentClient);", NONE],
  [
    'payinout: webhooks',
    "import { createWebhookHandler, verifyWebhookAsync, WebhookDeduplicator } from 'payinout'; use(createWebhookHandler, verifyWebhookAsync, WebhookDeduplicator);",
    NONE,
  ],
  ['payinout: every export', "import * as all from 'payinout'; use(all);", NONE],
  ['payinout/redis', "import { RedisDedupeStore } from 'payinout/redis'; use(RedisDedupeStore);", NONE],
  ['payinout/testing', "import * as all from 'payinout/testing'; use(all);", TESTING],
];

const results = [];
for (const [name, code, allowed] of USES) {
  const bundled = await build({
    stdin: {
      contents: `const use = (...x) => globalThis.keep?.(x);\n${code}`,
      resolveDir: app,
      loader: 'js',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    external: ['node:*'],
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(bundled.metafile.outputs)[0];
  const external = [...new Set(output.imports.filter((i) => i.external).map((i) => i.path))].sort();
  const extra = external.filter((path) => !allowed.includes(path));
  check(
    extra.length === 0,
    `${name} pulls in ${extra.join(', ')} (README "Requirements" allows ${allowed.join(', ') || 'none'})`,
  );
  results.push(`${name}: ${external.join(' ') || 'no built-ins'} (${(output.bytes / 1024).toFixed(0)} KB)`);
}
console.log(`RESULT ${JSON.stringify({ runtime: 'esbuild (platform neutral)', bundles: results })}`);
