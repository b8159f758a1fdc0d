/**
 * Webhook deliveries under a burst, through HTTP: confirms over the simulator's server, a
 * receiver that counts requests in flight. The queue keeps at most `webhookConcurrency`
 * attempts open and still delivers every one; resend and forwarding are new deliveries.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { basic, CUSTOMER_CO } from './helpers.js';

const json = {
  authorization: basic('demo-co', 'demo-co-pass'),
  'token-top': 'demo-co-token',
  'content-type': 'application/json',
};
let server: SandboxServer | undefined;
let receiver: Server | undefined;
afterEach(async () => {
  await server?.close();
  await new Promise((ok) => (receiver ? receiver.close(ok) : ok(undefined)));
  server = receiver = undefined;
});

/** A receiver that answers after `delayMs` and records the peak of concurrent requests. */
async function slowReceiver(delayMs: number) {
  const stats = { inFlight: 0, peak: 0, received: 0 };
  receiver = createServer((req, res) => {
    stats.inFlight++;
    stats.peak = Math.max(stats.peak, stats.inFlight);
    req.resume();
    req.on('end', () =>
      setTimeout(() => {
        stats.inFlight--;
        stats.received++;
        res.writeHead(200).end('ok');
      }, delayMs),
    );
  });
  await new Promise<void>((ok) => receiver!.listen(0, '127.0.0.1', ok));
  return { stats, url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ipn` };
}

async function call(path: string, body: unknown) {
  const response = await fetch(`${server!.url}${path}`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify(body),
  });
  return (await response.json()) as { data: { ticket: string } };
}

describe('webhook delivery queue', () => {
  it('a burst of 200 confirms keeps at most webhookConcurrency deliveries in flight and delivers all', async () => {
    const { stats, url } = await slowReceiver(10);
    server = await startSandboxServer({ webhookConcurrency: 8 });
    const tickets = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        call('/api/v2/payin', {
          reference: `burst-${i}`,
          amount: 1_000,
          currency: 'COP',
          country: 'CO',
          payment_method: 'BREB',
          description: 'burst',
          customer_data: CUSTOMER_CO,
          ipn_url: url,
        }).then((r) => r.data.ticket),
      ),
    );
    await Promise.all(
      tickets.map((ticket) =>
        call('/api/v1/sandbox/payin/confirm', {
          transaction_id: ticket,
          payment_method: 'BREB',
          status: 'APPROVED',
        }),
      ),
    );
    await expect.poll(() => stats.received, { timeout: 15_000 }).toBe(200);
    // The receiver counts a request before the simulator has read its answer: wait for the record.
    const delivered = () => server!.sandbox.deliveries.filter((d) => d.state === 'delivered').length;
    await expect.poll(delivered, { timeout: 15_000 }).toBe(200);
    expect(stats.peak).toBeLessThanOrEqual(8);
    expect(stats.peak).toBeGreaterThan(1);
    expect(server.sandbox.deliveries.every((d) => d.state === 'delivered' && d.attempts.length === 1)).toBe(
      true,
    );
  });

  it('resendWebhook repeats the last event as a new delivery; forwardWebhooksTo overrides ipn_url', async () => {
    const { stats, url } = await slowReceiver(0);
    server = await startSandboxServer({ forwardWebhooksTo: url });
    const created = await call('/api/v2/payin', {
      reference: 'fwd-1',
      amount: 1_000,
      currency: 'COP',
      country: 'CO',
      payment_method: 'BREB',
      description: 'forward',
      customer_data: CUSTOMER_CO,
    });
    expect(() => server!.sandbox.resendWebhook('fwd-1')).toThrow(/no webhook to resend/);
    await call('/api/v1/sandbox/payin/confirm', {
      transaction_id: created.data.ticket,
      payment_method: 'BREB',
      status: 'REJECTED',
    });
    await expect.poll(() => stats.received).toBe(1);
    const again = server.sandbox.resendWebhook('fwd-1');
    expect(again).toMatchObject({ resendOf: 1, url, status: 'REJECTED' });
    await expect.poll(() => stats.received).toBe(2);
    const [first, second] = server.sandbox.deliveries;
    expect(second!.body).toBe(first!.body);
    expect(second!.attempts[0]).toMatchObject({ url, status: 200, answer: 'ok' });
  });
});
