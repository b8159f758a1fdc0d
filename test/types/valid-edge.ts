/**
 * Correct usage in a Workers / Edge project: no @types/node, only the Fetch API's types. The
 * package's own declarations (skipLibCheck off) must compile there too. Nothing here runs.
 */
import { createWebhookHandler, PaymentClient, type Transaction } from 'payinout';

const client = new PaymentClient({
  username: 'user',
  password: 'pass',
  token: 'token',
  baseUrl: 'https://api.example.test',
});

export async function status(ticket: string): Promise<Transaction['status']> {
  return (await client.transactions.get(ticket)).status;
}

export const onRequest: (request: Request) => Promise<Response> = createWebhookHandler({
  token: { shopA: 'token-a', shopB: 'token-b' },
  onEvent: async (event, { merchant }) => {
    console.log(merchant, event.top_status);
  },
});
