/**
 * A merchant's CI suite: against the local simulator by default, against staging when the
 * PAYINOUT_* variables are set (PAYINOUT_BASE_URL, PAYINOUT_USERNAME, PAYINOUT_PASSWORD,
 * PAYINOUT_TOKEN).
 *
 *   npx vitest run --config vitest.staging.config.ts   # simulator, or staging with PAYINOUT_*
 *   npm run test:staging                               # the same file, meant for staging runs
 */
import { AlreadyFinalError, type PayInCustomerData, type PaymentClient } from 'payinout';
import { connectSandbox, type SandboxConnection } from 'payinout/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let connection: SandboxConnection;
let client: PaymentClient;
const run = Date.now();
const customer_data: PayInCustomerData<'CO'> = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ci@example.com',
  full_name: 'CI Customer',
};

beforeAll(async () => {
  connection = await connectSandbox({ country: 'CO', client: { strictResponses: true } });
  client = connection.client;
});
afterAll(() => connection.close());

describe(`checkout integration (${process.env.PAYINOUT_BASE_URL ? 'staging' : 'simulator'})`, () => {
  it('collects a Bre-B payment and sees it approved', async () => {
    const payin = await client.payin.create({
      reference: `ci-${run}-breb`,
      amount: 25_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'CI order',
      customer_data,
    });
    expect(payin.ticket).toBeTruthy();
    await client.sandbox.confirmPayIn({
      transaction_id: payin.ticket,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    const final = await client.transactions.waitForFinalStatus(payin.ticket, {
      intervalMs: 200,
      timeoutMs: 30_000,
    });
    expect(final.status).toBe('APPROVED');
  });

  it('treats a second, different confirm as AlreadyFinalError', async () => {
    const payin = await client.payin.create({
      reference: `ci-${run}-final`,
      amount: 25_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'CI order',
      customer_data,
    });
    await client.sandbox.confirmPayIn({
      transaction_id: payin.ticket,
      payment_method: 'BREB',
      status: 'REJECTED',
    });
    await expect(
      client.sandbox.confirmPayIn({
        transaction_id: payin.ticket,
        payment_method: 'BREB',
        status: 'APPROVED',
      }),
    ).rejects.toBeInstanceOf(AlreadyFinalError);
  });

  it('reads the balance in the documented format', async () => {
    const balance = await client.merchant.getBalance();
    expect(balance.balance_formatted).toMatch(/^[A-Z]{3} -?\d{1,3}(\.\d{3})*,\d{2}$/);
  });
});
