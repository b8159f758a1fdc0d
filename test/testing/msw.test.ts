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

it('takes the same fault rules: a dropped answer is a network error, a status is answered', async () => {
  const rule = sandbox.faults.add({ operation: 'payin.create', kind: 'drop-after-commit', times: 1 });
  const headers = {
    authorization: `Basic ${Buffer.from('demo-co:demo-co-pass').toString('base64')}`,
    'token-top': 'demo-co-token',
    'content-type': 'application/json',
  };
  const body = JSON.stringify({
    reference: 'msw-fault-1',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'CARD',
    description: 'x',
    customer_data: CUSTOMER_CO,
  });
  await expect(fetch(`${baseUrl}/api/v2/payin`, { method: 'POST', headers, body })).rejects.toThrow(
    TypeError,
  );
  expect(sandbox.getTransaction('msw-fault-1')).toBeDefined();
  sandbox.faults.remove(rule.id);
  sandbox.faults.add({
    operation: 'merchant.getBalance',
    kind: 'status',
    status: 429,
    retryAfter: 3,
    times: 1,
  });
  const limited = await fetch(`${baseUrl}/api/v1/merchant/balance`, { headers });
  expect(limited.status).toBe(429);
  expect(limited.headers.get('retry-after')).toBe('3');
  expect((await fetch(`${baseUrl}/api/v1/merchant/balance`, { headers })).status).toBe(200);
  sandbox.faults.clear();
});

it('the client settles a create whose answer was dropped after commit, by reference: one PayIn', async () => {
  sandbox.faults.add({ operation: 'payin.create', kind: 'drop-after-commit', times: 1 });
  const client = new PaymentClient({
    username: 'demo-co',
    password: 'demo-co-pass',
    token: 'demo-co-token',
    baseUrl,
  });
  const payin = await client.payin.create({
    reference: 'msw-fault-2',
    amount: 20_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'CARD',
    description: 'x',
    customer_data: CUSTOMER_CO,
  });
  expect(payin.ticket).toBe(sandbox.getTransaction('msw-fault-2')?.ticket);
  expect([...sandbox.transactions.values()].filter((t) => t.reference === 'msw-fault-2')).toHaveLength(1);
  sandbox.faults.clear();
});

it('takes rules in its own options too, all checked before any is added', async () => {
  const own = createSandbox({ webhooks: false });
  const bad = [
    { operation: 'merchant.getBalance', kind: 'status', status: 503 },
    { operation: 'merchant.getBalanc', kind: 'status', status: 503 },
  ] as const;
  expect(() => sandboxHandlers(own, { baseUrl: 'https://other.test', faults: bad as never })).toThrow(
    /did you mean merchant\.getBalance\?/,
  );
  expect(own.faults.list()).toEqual([]);
  sandboxHandlers(own, {
    baseUrl: 'https://other.test',
    faults: [{ operation: 'merchant.getBalance', kind: 'status', status: 503 }],
  });
  expect(own.faults.stats()).toEqual([
    { id: 'fault-1', operation: 'merchant.getBalance', kind: 'status', matched: 0, fired: 0 },
  ]);
});
