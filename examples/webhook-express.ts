/**
 * An Express 5 webhook receiver: `express.raw()` keeps the exact bytes the signature covers,
 * `createWebhookHandler(...).node` verifies, dedupes and answers 200.
 *
 *   npm run example:express
 */
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createWebhookHandler, type WebhookEvent } from 'payinout';
import { connectSandbox } from 'payinout/testing';

const { client, simulated, token, close } = await connectSandbox({ country: 'CO' });

const events: WebhookEvent[] = [];
const handler = createWebhookHandler({
  token,
  onEvent: async (event) => {
    // Your business logic: mark the order paid, idempotently by top_reference.
    events.push(event);
    console.log(
      `express: ${event.top_status} ${event.top_reference} (${event.top_amount} ${event.top_currency})`,
    );
  },
});

const app = express();
app.post('/webhooks/payinout', express.raw({ type: '*/*' }), (req, res) => handler.node(req, res));
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const ipnUrl = simulated
  ? `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/payinout`
  : process.env.PAYINOUT_IPN_URL;

try {
  const payin = await client.payin.create({
    reference: `express-${Date.now()}`,
    amount: 80_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'EFECTY',
    description: 'Express webhook demo',
    customer_data: {
      legal_doc: '1020304050',
      legal_doc_type: 'CC',
      phone_code: '57',
      phone_number: '3001234567',
      email: 'ana.gomez@example.com',
      full_name: 'Ana Gomez',
    },
    ...(ipnUrl ? { ipn_url: ipnUrl } : {}),
  });
  // EFECTY: the cash payment reference also works as transaction_id.
  const cashReference = String(payin.payment_information?.payment_reference ?? payin.ticket);
  console.log(`express: PayIn ${payin.ticket}, Efecty reference ${cashReference}`);
  await client.sandbox.confirmPayIn({
    transaction_id: cashReference,
    payment_method: 'EFECTY',
    status: 'APPROVED',
  });

  if (!ipnUrl) console.log('express: set PAYINOUT_IPN_URL to receive webhooks from a real environment');
  else {
    const deadline = Date.now() + 30_000;
    while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    if (events[0]?.top_ticket !== payin.ticket) throw new Error('the webhook did not arrive');
    console.log('express: webhook verified and processed');
  }
} finally {
  server.close();
  await close();
}
