/**
 * payinout/testing with msw installed: the handlers spread into msw's own setupServer(). Compiled
 * only where msw is installed (scripts/check-types.mjs "with msw"); valid.ts covers the rest.
 */
import { setupServer } from 'msw/node';
import { PaymentClient } from 'payinout';
import { createSandbox, sandboxHandlers } from 'payinout/testing';

export async function withMsw(): Promise<number> {
  const sandbox = createSandbox({ webhooks: false });
  const server = setupServer(...sandboxHandlers(sandbox, { baseUrl: 'https://sandbox.test' }));
  server.listen({ onUnhandledRequest: 'error' });
  const client = new PaymentClient({
    username: 'demo-co',
    password: 'p',
    token: 't',
    baseUrl: 'https://sandbox.test',
  });
  const balance = await client.merchant.getBalance();
  server.close();
  return balance.balance;
}
