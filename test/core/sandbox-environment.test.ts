/**
 * A staging client pointed at a service without sandbox endpoints (the simulator playing
 * production, which answers sandbox confirm 404 NOT_FOUND as the spec's "Environments" says):
 * the error says the environment has no sandbox endpoints and how to fix baseUrl, instead of
 * sending the merchant to check a ticket that exists. A real simulator on 127.0.0.1, port 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundError, PaymentClient } from '../../src/index.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { customerCO } from '../helpers/fixtures.js';

let server: SandboxServer;
let client: PaymentClient;

beforeAll(async () => {
  server = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    environment: 'production',
    webhooks: false,
  });
  client = new PaymentClient({
    username: 'demo-co',
    password: 'demo-co-pass',
    token: 'demo-co-token',
    baseUrl: server.url,
    maxRetries: 0,
  });
});
afterAll(() => server.close());

describe('sandbox confirm against an environment without sandbox endpoints', () => {
  it('says so, names baseUrl and staging/UAT, and links the guide in full', async () => {
    const payin = await client.payin.create({
      reference: `env-${Date.now()}`,
      amount: 50_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'EFECTY',
      description: 'x',
      customer_data: customerCO,
    });
    // The transaction exists: only the environment can explain the 404.
    expect((await client.transactions.get(payin.ticket)).status).toBe('PENDING');
    const error = await client.sandbox
      .confirmPayIn({ transaction_id: payin.ticket, payment_method: 'EFECTY', status: 'APPROVED' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    const { message } = error as NotFoundError;
    expect(message).toMatch(/has no sandbox endpoints/);
    expect(message).toMatch(/PAYINOUT_BASE_URL/);
    expect(message).toMatch(/staging or UAT/);
    expect(message).toContain('https://github.com/payinout/payinout/blob/main/docs/testing.md#');
    expect(message).not.toMatch(/check the ticket/i);
  });

  it('a 404 off the sandbox paths keeps the lookup advice', async () => {
    const error = await client.transactions.get('no-such-reference').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).not.toMatch(/sandbox endpoints/);
  });
});
