/**
 * A Hono webhook receiver (Fetch API): the same handler works in Next.js route handlers,
 * Bun, Deno and Workers — `app.post(path, (c) => handler(c.req.raw))`.
 *
 *   npm run example:hono
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createWebhookHandler, type WebhookEvent } from 'payinout';
import { connectSandbox } from 'payinout/testing';

const { client, simulated, token, close } = await connectSandbox({ country: 'PE' });

let resolveEvent: (event: WebhookEvent) => void = () => {};
const received = new Promise<WebhookEvent>((resolve) => {
  resolveEvent = resolve;
});
const handler = createWebhookHandler({ token, onEvent: (event) => resolveEvent(event) });

const app = new Hono();
app.post('/webhooks/payinout', (c) => handler(c.req.raw));
const { port, server } = await new Promise<{ port: number; server: ReturnType<typeof serve> }>((resolve) => {
  const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
    resolve({ port: info.port, server: s }),
  );
});
const ipnUrl = simulated ? `http://127.0.0.1:${port}/webhooks/payinout` : process.env.PAYINOUT_IPN_URL;

try {
  const payin = await client.payin.create({
    reference: `hono-${Date.now()}`,
    amount: 120,
    currency: 'PEN',
    country: 'PE',
    payment_method: 'QR',
    description: 'Hono webhook demo',
    customer_data: {
      legal_doc: '45678912',
      legal_doc_type: 'DNI',
      phone_code: '51',
      phone_number: '987654321',
      email: 'luis.quispe@example.com',
      full_name: 'Luis Quispe',
    },
    ...(ipnUrl ? { ipn_url: ipnUrl } : {}),
  });
  console.log(`hono: PayIn ${payin.ticket} (QR)`);
  // QR supports APPROVED, REJECTED and EXPIRED in sandbox confirm; show an expiry.
  await client.sandbox.confirmPayIn({
    transaction_id: payin.ticket,
    payment_method: 'QR',
    status: 'EXPIRED',
  });

  if (!ipnUrl) console.log('hono: set PAYINOUT_IPN_URL to receive webhooks from a real environment');
  else {
    const event = await Promise.race([
      received,
      // unref: a pending timeout must not keep the process alive once the event is in.
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no webhook within 30 s')), 30_000).unref(),
      ),
    ]);
    if (event.top_status !== 'EXPIRED') throw new Error(`unexpected status ${event.top_status}`);
    console.log(`hono: webhook verified: ${event.top_status} ${event.top_reference}`);
  }
} finally {
  server.close();
  await close();
}
