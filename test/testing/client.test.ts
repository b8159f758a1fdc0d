/** The real PaymentClient against startSandboxServer (HTTP), strict responses on. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AlreadyFinalError,
  AuthenticationError,
  NotFoundError,
  PaymentClient,
  StatusNotSupportedError,
  TypeMismatchError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { CUSTOMER_CO, CUSTOMER_MX, VALID_CLABE } from './helpers.js';

let server: SandboxServer;
const clients: Record<string, PaymentClient> = {};

beforeAll(async () => {
  server = await startSandboxServer({ webhooks: false });
  for (const m of server.sandbox.merchants) {
    clients[m.country] = new PaymentClient({
      username: m.username,
      password: m.password,
      token: m.token,
      baseUrl: server.url,
      strictResponses: true,
      maxRetries: 0,
    });
  }
});
afterAll(() => server.close());

const co = () => clients.CO!;
let n = 0;
const reference = () => `client-${++n}-${Date.now()}`;

describe('PaymentClient ↔ startSandboxServer', () => {
  it('url is the base_url to give the client', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('the whole money flow, every answer passing the strict schemas', async () => {
    const payin = await co().payin.create({
      reference: reference(),
      amount: 150_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'Order',
      customer_data: CUSTOMER_CO,
    });
    const key = String(payin.payment_information?.breb_key);
    const confirmed = await co().sandbox.confirmPayIn({
      transaction_id: key,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    expect(confirmed.status).toBe('APPROVED');
    expect(confirmed.lastResponse.status).toBe(200);
    const balance = await co().merchant.getBalance();
    expect(balance.balance).toBe(150_000);
    expect(balance.balance_formatted).toBe('COP 150.000,00');
    expect((await co().merchant.getProfile()).wallet).toBe(150_000);
    expect(await co().payin.listPseBanks()).toContainEqual({ code: expect.any(String), name: 'Banka' });

    const payout = await co().payout.create({
      reference: reference(),
      amount: 40_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BANK_TRANSFER',
      ipn_url: 'http://127.0.0.1:9/ipn',
      customer_data: {
        ...CUSTOMER_CO,
        bank: 'BANCOLOMBIA',
        account_number: '1234567890',
        account_type: 'AHORRO',
      },
    });
    expect((await co().merchant.getBalance()).balance).toBe(110_000);
    await co().sandbox.confirmPayOut({
      transaction_id: payout.ticket,
      payment_method: 'BANK_TRANSFER',
      status: 'REJECTED',
    });
    expect((await co().merchant.getBalance()).balance).toBe(150_000);
    const tx = await co().transactions.get(payout.transaction.reference);
    expect(tx).toMatchObject({ ticket: payout.ticket, status: 'REJECTED', type_transaction: 'PAYOUT' });
    expect(await co().transactions.waitForFinalStatus(payin.ticket, { intervalMs: 10 })).toMatchObject({
      status: 'APPROVED',
    });
  });

  it('Mexico SPEI: PayIn CLABE confirm, then a SPEI PayOut', async () => {
    const mx = clients.MX!;
    const customer_data = { ...CUSTOMER_MX, legal_doc_type: 'INE' };
    const payin = await mx.payin.create({
      reference: reference(),
      amount: 5_000,
      currency: 'MXN',
      country: 'MX',
      payment_method: 'SPEI',
      description: 'x',
      customer_data,
    });
    await mx.sandbox.confirmPayIn({
      transaction_id: String(payin.payment_information?.clabe),
      payment_method: 'SPEI',
      status: 'APPROVED',
    });
    const payout = await mx.payout.create({
      reference: reference(),
      amount: 1_000,
      currency: 'MXN',
      country: 'MX',
      payment_method: 'SPEI',
      ipn_url: 'http://127.0.0.1:9/ipn',
      customer_data: {
        ...customer_data,
        bank: 'STP',
        account_type: 'CLABE',
        account_number: VALID_CLABE,
        clabe_number: VALID_CLABE,
      },
    });
    const done = await mx.sandbox.confirmPayOut({
      transaction_id: payout.ticket,
      payment_method: 'SPEI',
      status: 'EXPIRED',
    });
    expect(done.status).toBe('REJECTED');
  });

  it('maps every error row to its SDK class', async () => {
    const payin = await co().payin.create({
      reference: reference(),
      amount: 1_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'EFECTY',
      description: 'x',
      customer_data: CUSTOMER_CO,
    });
    const ticket = payin.ticket;
    // validateRequests: false so the simulator, not the client-side check, answers.
    const raw = new PaymentClient({
      ...credentials('CO'),
      baseUrl: server.url,
      validateRequests: false,
      maxRetries: 0,
    });
    await expect(
      raw.sandbox.confirmPayIn({ transaction_id: ticket, payment_method: 'EFECTY', status: 'EXPIRED' }),
    ).rejects.toBeInstanceOf(StatusNotSupportedError);
    await expect(
      co().sandbox.confirmPayOut({ transaction_id: ticket, payment_method: 'EFECTY', status: 'APPROVED' }),
    ).rejects.toBeInstanceOf(TypeMismatchError);
    await expect(
      co().sandbox.confirmPayIn({ transaction_id: 'missing', payment_method: 'EFECTY', status: 'APPROVED' }),
    ).rejects.toBeInstanceOf(NotFoundError);
    await co().sandbox.confirmPayIn({ transaction_id: ticket, payment_method: 'EFECTY', status: 'APPROVED' });
    await co().sandbox.confirmPayIn({ transaction_id: ticket, payment_method: 'EFECTY', status: 'APPROVED' });
    await expect(
      raw.sandbox.confirmPayIn({ transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' }),
    ).rejects.toBeInstanceOf(UnprocessableEntityError);
    const denied = new PaymentClient({
      ...credentials('CO'),
      password: 'wrong',
      baseUrl: server.url,
      maxRetries: 0,
    });
    await expect(denied.merchant.getBalance()).rejects.toBeInstanceOf(AuthenticationError);
    const error = await raw.payout
      .create({
        reference: reference(),
        amount: 1e12,
        currency: 'COP',
        country: 'CO',
        payment_method: 'BANK_TRANSFER',
        ipn_url: 'http://127.0.0.1:9/x',
        customer_data: { ...CUSTOMER_CO, bank: 'B', account_number: '1', account_type: 'AHORRO' },
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnprocessableEntityError);
    expect((error as UnprocessableEntityError).errorCode).toBe('INSUFFICIENT_FUNDS');
  });

  it('ALREADY_FINAL maps to AlreadyFinalError', async () => {
    const payin = await co().payin.create({
      reference: reference(),
      amount: 1_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'x',
      customer_data: CUSTOMER_CO,
    });
    await co().sandbox.confirmPayIn({
      transaction_id: payin.ticket,
      payment_method: 'BREB',
      status: 'REJECTED',
    });
    await expect(
      co().sandbox.confirmPayIn({ transaction_id: payin.ticket, payment_method: 'BREB', status: 'APPROVED' }),
    ).rejects.toBeInstanceOf(AlreadyFinalError);
  });

  it('production: sandbox confirm answers 404 over HTTP', async () => {
    const prod = await startSandboxServer({ environment: 'production', webhooks: false });
    try {
      const m = prod.sandbox.merchants[0]!;
      // A staging-configured client, so the request is actually sent to the production-mode simulator.
      const client = new PaymentClient({
        username: m.username,
        password: m.password,
        token: m.token,
        baseUrl: prod.url,
        maxRetries: 0,
      });
      await expect(
        client.sandbox.confirmPayIn({ transaction_id: 'x', payment_method: 'BREB', status: 'APPROVED' }),
      ).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await prod.close();
    }
  });
});

function credentials(country: string) {
  const m = server.sandbox.merchants.find((x) => x.country === country)!;
  return { username: m.username, password: m.password, token: m.token };
}
