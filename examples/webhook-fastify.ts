/**
 * A Fastify 5 webhook receiver: keep the body as a string (the signature covers the raw
 * bytes) and hand it to `handler.handle(rawBody, headers)`.
 *
 *   npm run example:fastify
 */
import Fastify from 'fastify';
import { createWebhookHandler, type WebhookEvent } from 'payinout';
import { connectSandbox } from 'payinout/testing';

const { client, simulated, token, close } = await connectSandbox({ country: 'CO' });

const events: WebhookEvent[] = [];
const handler = createWebhookHandler({ token, onEvent: (event) => void events.push(event) });

const app = Fastify();
// Replace the JSON parser for this app: the handler needs the exact raw body.
app.removeContentTypeParser('application/json');
app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
app.post('/webhooks/payinout', async (request, reply) => {
  const result = await handler.handle(request.body as string, request.headers);
  return reply.code(result.status).headers(result.headers).send(result.body);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
const ipnUrl = simulated ? `${address}/webhooks/payinout` : process.env.PAYINOUT_IPN_URL;

try {
  const payin = await client.payin.create({
    reference: `fastify-${Date.now()}`,
    amount: 60_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB_QR',
    description: 'Fastify webhook demo',
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
  console.log(`fastify: PayIn ${payin.ticket} (Bre-B QR)`);
  await client.sandbox.confirmPayIn({
    transaction_id: payin.ticket,
    payment_method: 'BREB_QR',
    status: 'REJECTED',
  });

  if (!ipnUrl) console.log('fastify: set PAYINOUT_IPN_URL to receive webhooks from a real environment');
  else {
    const deadline = Date.now() + 30_000;
    while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const event = events[0];
    if (event?.top_status !== 'REJECTED') throw new Error('the REJECTED webhook did not arrive');
    console.log(`fastify: webhook verified: ${event.top_status} ${event.top_reference}`);
  }
} finally {
  await app.close();
  await close();
}
