/**
 * The flow on runtimes with node:http (Node, Bun, Deno): the simulator from
 * `payinout/testing`'s startSandboxServer, the money flow against it, and its real webhook
 * delivery received by `createWebhookHandler(...).node` on a node:http server, then checked
 * again by verifyWebhook and the Fetch form. `payinout` and `payinout/testing` are handed in, so
 * the ESM (flow.mjs) and CommonJS (flow.cjs) cases run the same steps on their own build.
 */
import { createServer } from 'node:http';
import { check, deliveryHeaders, MERCHANT, moneyFlow, webhookChecks } from './money-flow.mjs';

export async function serverFlow(payinout, testing, label) {
  const server = await testing.startSandboxServer();
  const events = [];
  const handler = payinout.createWebhookHandler({
    token: MERCHANT.token,
    onEvent: (event) => void events.push(event),
  });
  const receiver = createServer((req, res) => void handler.node(req, res));
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const ipnUrl = `http://127.0.0.1:${receiver.address().port}/webhooks`;
    const flow = await moneyFlow(payinout, { baseUrl: server.url, ipnUrl, label });
    const delivery = await server.sandbox.waitForDelivery(
      (d) => d.ticket === flow.ticket && d.status === 'APPROVED' && d.state === 'delivered',
      { timeoutMs: 10_000 },
    );
    const received = events.filter((e) => e.top_ticket === flow.ticket && e.top_status === 'APPROVED');
    check(received.length === 1, `createWebhookHandler.node ran onEvent ${received.length} times`);
    const webhook = await webhookChecks(payinout, {
      body: delivery.body,
      headers: deliveryHeaders(delivery.headers),
      token: MERCHANT.token,
    });
    return { ...flow, webhook: ['createWebhookHandler.node (real delivery)', ...webhook] };
  } finally {
    receiver.closeAllConnections?.();
    receiver.close();
    await server.close();
  }
}

/** 'node v22.23.3', 'bun 1.4.5', 'deno 2.9.6'. */
export function runtimeName() {
  if (globalThis.Deno) return `deno ${globalThis.Deno.version.deno}`;
  if (globalThis.Bun) return `bun ${globalThis.Bun.version}`;
  return `node ${process.version}`;
}
