/**
 * The whole money flow in one file: PayIn → sandbox confirm → signed webhook → balance →
 * PayOut → confirm → lookup. Runs against the embedded simulator (no credentials needed):
 *
 *   npm run example
 *
 * With PAYINOUT_BASE_URL, PAYINOUT_USERNAME, PAYINOUT_PASSWORD and PAYINOUT_TOKEN set it runs
 * against that environment (staging/UAT); webhooks then need a public PAYINOUT_IPN_URL.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type PayInCustomerData, type WebhookEvent } from 'payinout';
import { connectSandbox } from 'payinout/testing';

const step = (n: number, text: string) => console.log(`${n}. ${text}`);

const { client, simulated, token, close } = await connectSandbox({ country: 'CO' });
console.log(`payinout quickstart against ${simulated ? 'the local simulator' : client.baseUrl}\n`);

// A webhook receiver: node:http + createWebhookHandler (verifies x-trx-signature, dedupes).
let resolveEvent: (event: WebhookEvent) => void = () => {};
const approved = new Promise<WebhookEvent>((resolve) => {
  resolveEvent = resolve;
});
const handler = createWebhookHandler({
  token,
  onEvent: (event) => {
    if (event.top_status === 'APPROVED') resolveEvent(event);
  },
});
const receiver = createServer((req, res) => void handler.node(req, res));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const localIpn = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
const ipnUrl = simulated ? localIpn : process.env.PAYINOUT_IPN_URL;

try {
  // Annotated: a customer declared apart from the params keeps its literal document type.
  const customer_data: PayInCustomerData<'CO'> = {
    legal_doc: '1020304050',
    legal_doc_type: 'CC',
    phone_code: '57',
    phone_number: '3001234567',
    email: 'ana.gomez@example.com',
    full_name: 'Ana Gomez',
  };
  const reference = `quickstart-${Date.now()}`;

  const payin = await client.payin.create({
    reference,
    amount: 150_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'Quickstart order',
    customer_data,
    ...(ipnUrl ? { ipn_url: ipnUrl } : {}),
  });
  const brebKey = String(payin.payment_information?.breb_key ?? payin.ticket);
  step(1, `PayIn created: ticket ${payin.ticket}, Bre-B key ${brebKey}`);

  const confirmed = await client.sandbox.confirmPayIn({
    transaction_id: brebKey,
    payment_method: 'BREB',
    status: 'APPROVED',
  });
  step(2, `Sandbox confirm: ${confirmed.status} (${confirmed.lastResponse.message})`);

  if (ipnUrl) {
    const event = await Promise.race([
      approved,
      // unref: a pending timeout must not keep the process alive once the event is in.
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no webhook within 30 s')), 30_000).unref(),
      ),
    ]);
    step(3, `Webhook received and verified: ${event.top_status} for ${event.top_reference}`);
  } else {
    step(3, 'Webhook skipped: set PAYINOUT_IPN_URL to a public URL to receive it from a real environment');
  }

  const balance = await client.merchant.getBalance();
  step(4, `Balance credited: ${balance.balance_formatted}`);

  const payout = await client.payout.create({
    reference: `${reference}-payout`,
    amount: 40_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BANK_TRANSFER',
    ipn_url: ipnUrl ?? 'https://example.com/webhooks',
    customer_data: {
      ...customer_data,
      bank: 'BANCOLOMBIA',
      account_number: '1234567890',
      account_type: 'AHORRO',
    },
  });
  step(5, `PayOut created: ticket ${payout.ticket} (balance reserved)`);

  const paid = await client.sandbox.confirmPayOut({
    transaction_id: payout.ticket,
    payment_method: 'BANK_TRANSFER',
    status: 'APPROVED',
  });
  step(6, `PayOut confirmed: ${paid.status}`);

  const found = await client.transactions.get(payout.transaction.reference);
  step(7, `Lookup by reference: ${found.type_transaction} ${found.amount} ${found.currency} ${found.status}`);
  const after = await client.merchant.getBalance();
  console.log(`\nDone. Balance now ${after.balance_formatted}.`);
} finally {
  receiver.close();
  await close();
}
