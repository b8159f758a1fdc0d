/**
 * Cloudflare Workers: workerd through Miniflare with nodejs_compat. The worker is bundled as
 * wrangler does it (esbuild, ESM, platform neutral, conditions workerd/worker/browser, node:*
 * left to the runtime), runs the money flow against a simulator on 127.0.0.1, and receives
 * the simulator's real webhook delivery in createWebhookHandler's Fetch form.
 * Run by run.mjs: `node hosts/workers.mjs APP_DIR`, APP_DIR holding the installed package and
 * a copy of cases/.
 */
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { app, check, deliveryHeaders, startSimulator } from './app.mjs';

const bundled = await build({
  absWorkingDir: app,
  entryPoints: ['worker.mjs'],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  conditions: ['workerd', 'worker', 'browser'],
  mainFields: ['workerd', 'worker', 'browser', 'module', 'main'],
  external: ['node:*', 'cloudflare:*'],
  metafile: true,
  logLevel: 'silent',
});
const builtins = Object.values(bundled.metafile.outputs)[0].imports.filter((i) => i.external);

const simulator = await startSimulator();
const mf = new Miniflare({
  modules: true,
  script: bundled.outputFiles[0].text,
  compatibilityDate: '2026-04-01',
  compatibilityFlags: ['nodejs_compat'],
  bindings: { SIMULATOR_URL: simulator.url },
  host: '127.0.0.1',
  port: 0,
});
try {
  const url = await mf.ready;
  const call = async (method, path, body) => {
    const response = await fetch(new URL(path, url), {
      method,
      ...(body ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
    });
    if (!response.ok)
      throw new Error(`worker ${method} ${path} answered ${response.status}: ${await response.text()}`);
    return response.json();
  };
  const flow = await call('POST', '/flow', { ipnUrl: new URL('/webhooks', url).href });
  const delivery = await simulator.sandbox.waitForDelivery(
    (d) => d.ticket === flow.ticket && d.status === 'APPROVED' && d.state === 'delivered',
    { timeoutMs: 10_000 },
  );
  const seen = await call('GET', '/events');
  check(
    seen.filter((e) => e.ticket === flow.ticket && e.status === 'APPROVED').length === 1,
    `the worker's onEvent saw ${JSON.stringify(seen)}`,
  );
  const checks = await call('POST', '/check', {
    body: delivery.body,
    headers: deliveryHeaders(delivery.headers),
  });
  const webhook = ['createWebhookHandler (Fetch, real delivery)', ...checks];
  const external = builtins.map((i) => i.path).join(' ') || 'none';
  const result = {
    runtime: 'workerd (miniflare)',
    ...flow,
    'node: imports left to workerd': external,
    webhook,
  };
  console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  await mf.dispose();
  await simulator.close();
}
