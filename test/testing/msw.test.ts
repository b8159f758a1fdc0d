/** sandboxHandlers(): the simulator behind msw, for merchants' unit tests without a port. */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PaymentClient } from '../../src/index.js';
import { createSandbox, sandboxHandlers } from '../../src/testing/index.js';
import { CUSTOMER_CO } from './helpers.js';

const baseUrl = 'https://sandbox.payinout.test/root';
const sandbox = createSandbox({ webhooks: false });
const server = setupServer(...sandboxHandlers(sandbox, { baseUrl }));
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());

it('answers the real client through msw, with a base path', async () => {
  const client = new PaymentClient({
    username: 'demo-co',
    password: 'demo-co-pass',
    token: 'demo-co-token',
    baseUrl,
    strictResponses: true,
  });
  const payin = await client.payin.create({
    reference: 'msw-1',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'CARD',
    description: 'x',
    customer_data: CUSTOMER_CO,
  });
  expect(payin.payment_url).toBe(`${baseUrl}/checkout/${payin.ticket}`);
  sandbox.completePayment(payin.ticket, { card_number: '4111111111111111' });
  expect((await client.transactions.get('msw-1')).status).toBe('APPROVED');
  expect((await client.merchant.getBalance()).balance).toBe(20_000);
});
