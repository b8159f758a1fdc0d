/**
 * Vercel Edge Runtime, locally through @edge-runtime/vm. cases/edge-entry.mjs is bundled with
 * the conditions Next.js uses for edge routes (edge-light, worker, browser) and no Node
 * built-ins: any `node:` import payinout made would fail this build. In the VM it runs the
 * money flow against a simulator on 127.0.0.1 (the VM's fetch) and checks the simulator's real
 * webhook delivery with createWebhookHandler's Fetch form.
 * Run by run.mjs: `node hosts/edge.mjs APP_DIR`.
 */
import { createServer } from 'node:http';
import { EdgeVM } from '@edge-runtime/vm';
import { build } from 'esbuild';
import { app, deliveryHeaders, startSimulator } from './app.mjs';

const bundled = await build({
  absWorkingDir: app,
  entryPoints: ['edge-entry.mjs'],
  bundle: true,
  write: false,
  format: 'iife',
  platform: 'neutral',
  target: 'es2022',
  conditions: ['edge-light', 'worker', 'browser'],
  mainFields: ['browser', 'module', 'main'],
  logLevel: 'silent',
});

const simulator = await startSimulator();
// Where the simulator delivers the webhook; the delivery itself is then checked inside the VM.
const receiver = createServer((_req, res) => res.end('ok'));
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
try {
  const vm = new EdgeVM();
  vm.evaluate(bundled.outputFiles[0].text);
  const ipnUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`;
  const flow = await vm.evaluate('edgeCase.flow')(simulator.url, ipnUrl);
  const delivery = await simulator.sandbox.waitForDelivery(
    (d) => d.ticket === flow.ticket && d.status === 'APPROVED' && d.state === 'delivered',
    { timeoutMs: 10_000 },
  );
  const webhook = await vm.evaluate('edgeCase.webhook')({
    body: delivery.body,
    headers: deliveryHeaders(delivery.headers),
  });
  const result = { runtime: 'edge-runtime (vm)', ...flow, webhook: [...webhook, 'verifyWebhook refused'] };
  console.log(`RESULT ${JSON.stringify(result)}`);
} finally {
  receiver.close();
  await simulator.close();
}
