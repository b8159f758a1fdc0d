/**
 * A Hono webhook receiver (Fetch API): the same handler works in Next.js route handlers,
 * Bun, Deno, Workers and Vercel Edge — `app.post(path, (c) => handler(c.req.raw))`.
 * `confirmWith: client` looks each delivery's transaction up before onEvent, so a captured
 * delivery replayed with another status never reaches it (docs/webhooks.md).
 *
 *   npm run example:hono
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { createWebhookHandler, type Transaction, type WebhookEvent } from 'payinout';
import { connectSandbox } from 'payinout/testing';

const { client, simulated, token, close } = await connectSandbox({ country: 'PE' });

type Confirmed = { event: WebhookEvent; transaction: Transaction | undefined };
let resolveEvent: (confirmed: Confirmed) => void = () => {};
const received = new Promise<Confirmed>((resolve) => {
  resolveEvent = resolve;
});
const handler = createWebhookHandler({
  token,
  confirmWith: client,
  onEvent: (event, { transaction }) => resolveEvent({ event, transaction }),
});

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
    const { event, transaction } = await Promise.race([
      received,
      // unref: a pending timeout must not keep the process alive once the event is in.
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no webhook within 30 s')), 30_000).unref(),
      ),
    ]);
    if (event.top_status !== 'EXPIRED') throw new Error(`unexpected status ${event.top_status}`);
    if (transaction?.status !== 'EXPIRED') throw new Error('the lookup did not confirm the webhook');
    console.log(
      `hono: webhook verified and confirmed by lookup: ${transaction.status} ${transaction.reference}`,
    );
  }
} finally {
  server.close();
  await close();
}
