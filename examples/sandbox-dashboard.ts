/**
 * The simulator's dashboard: starts the local simulator, creates a PayIn with a webhook
 * receiver, approves it, and prints (and in a terminal opens) the dashboard where you can watch
 * it, confirm more transactions with buttons and resend webhooks:
 *
 *   npm run example:dashboard        # keeps serving until Ctrl+C when run in a terminal
 *
 * The same dashboard comes with `npx payinout sandbox` (its `dashboard=` line).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, type PayInCustomerData, PaymentClient } from 'payinout';
import { startSandboxServer } from 'payinout/testing';

const server = await startSandboxServer(); // 127.0.0.1, a free port; the dashboard needs no login here
const merchant = server.sandbox.merchants[0]!; // demo-co (CO, COP)
const client = new PaymentClient({
  username: merchant.username,
  password: merchant.password,
  token: merchant.token,
  baseUrl: server.url,
});

// A webhook receiver, so the dashboard has a delivery to show.
const handler = createWebhookHandler({ token: merchant.token, onEvent: () => {} });
const receiver = createServer((req, res) => void handler.node(req, res));
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const ipn_url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

const customer_data: PayInCustomerData<'CO'> = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gomez',
};
const approved = await client.payin.create({
  reference: `order-${Date.now()}`,
  amount: 150_000,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BREB',
  description: 'Dashboard example',
  customer_data,
  ipn_url,
});
await client.sandbox.confirmPayIn({
  transaction_id: approved.ticket,
  payment_method: 'BREB',
  status: 'APPROVED',
});
const pending = await client.payin.create({
  reference: `order-${Date.now()}-2`,
  amount: 89_900.5,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BREB',
  description: 'Confirm me from the dashboard',
  customer_data,
  ipn_url,
});
await server.sandbox.waitForDelivery((d) => d.ticket === approved.ticket);

const page = await fetch(server.dashboardUrl);
if (page.status !== 200) throw new Error(`The dashboard answered ${page.status}.`);
console.log(`dashboard:            ${server.dashboardUrl}`);
console.log(`approved PayIn:       ${server.dashboardUrl}#/tx/${approved.ticket}`);
console.log(`pending, confirm it:  ${server.dashboardUrl}#/tx/${pending.ticket}`);

if (process.stdin.isTTY) {
  openInBrowser(server.dashboardUrl);
  console.log('\nServing until Ctrl+C.');
  process.once('SIGINT', () => void shutdown());
} else {
  await shutdown(); // npm test / CI: nothing to watch
}

async function shutdown() {
  await server.close();
  receiver.close();
}

/** Best effort: the system's browser opener; the URL above works just as well. */
function openInBrowser(url: string) {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  const child = spawn(command, [url], { stdio: 'ignore', detached: true });
  child.on('error', () => {});
  child.unref();
}
