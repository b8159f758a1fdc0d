/** Spec "Events": payload, headers, receipt = 200, and the 1 + 5 attempt retry schedule. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { computeWebhookSignature, verifyWebhook } from '../../src/index.js';
import {
  createManualClock,
  createSandbox,
  type Sandbox,
  type SandboxOptions,
  WEBHOOK_RETRY_MINUTES,
} from '../../src/testing/index.js';
import { basic, CUSTOMER_CO, IPN, payIn } from './helpers.js';

const MINUTE = 60_000;

interface Sent {
  url: string;
  at: number;
  headers: Record<string, string>;
  body: string;
}

function harness(answers: (n: number) => number, options: SandboxOptions = {}) {
  const clock = createManualClock();
  const sent: Sent[] = [];
  const fakeFetch = (async (url: string, init: RequestInit) => {
    sent.push({
      url,
      at: clock.now(),
      headers: init.headers as Record<string, string>,
      body: String(init.body),
    });
    return new Response('ok', { status: answers(sent.length) });
  }) as unknown as typeof fetch;
  const sandbox = createSandbox({ clock, fetch: fakeFetch, ...options });
  const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' };
  const post = (path: string, body: unknown) =>
    sandbox.handle({ method: 'POST', path, headers: auth, body: JSON.stringify(body) }).body as {
      data: { ticket: string };
    };
  const approve = (body = payIn()) => {
    const ticket = post('/api/v2/payin', body).data.ticket;
    post('/api/v1/sandbox/payin/confirm', {
      transaction_id: ticket,
      payment_method: body.payment_method,
      status: 'APPROVED',
    });
    return { ticket, body };
  };
  return { clock, sent, sandbox, approve };
}

let open: Sandbox | undefined;
afterEach(() => open?.close());

describe('retry schedule (spec "Events", rule 4)', () => {
  it('never confirmed: exactly 1 + 5 attempts, spaced 5, 15, 30, 60, 120 minutes', async () => {
    const h = harness(() => 500);
    open = h.sandbox;
    const start = h.clock.now();
    h.approve();
    await h.clock.advance(0);
    expect(h.sent).toHaveLength(1);
    expect(h.sent[0]!.at).toBe(start);
    await h.clock.advance(24 * 60 * MINUTE);
    expect(h.sent).toHaveLength(6);
    const gaps = h.sent.slice(1).map((s, i) => (s.at - h.sent[i]!.at) / MINUTE);
    expect(gaps).toEqual([5, 15, 30, 60, 120]);
    expect(gaps).toEqual([...WEBHOOK_RETRY_MINUTES]);
    const delivery = h.sandbox.deliveries[0]!;
    expect(delivery.state).toBe('failed');
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 500, 500, 500, 500]);
    expect(h.clock.pending).toBe(0);
  });

  it('timeScale shrinks the schedule proportionally', async () => {
    const h = harness(() => 503, { timeScale: 0.001 });
    open = h.sandbox;
    h.approve();
    await h.clock.advance(10 * MINUTE);
    const gaps = h.sent.slice(1).map((s, i) => s.at - h.sent[i]!.at);
    expect(gaps).toEqual([300, 900, 1_800, 3_600, 7_200]);
  });

  it('stops at the first 200', async () => {
    const h = harness((n) => (n < 3 ? 500 : 200));
    open = h.sandbox;
    h.approve();
    await h.clock.advance(24 * 60 * MINUTE);
    expect(h.sent).toHaveLength(3);
    expect(h.sandbox.deliveries[0]!.state).toBe('delivered');
  });

  it('only 200 confirms receipt: 204 and 202 are retried', async () => {
    const h = harness((n) => (n === 1 ? 204 : n === 2 ? 202 : 200));
    open = h.sandbox;
    h.approve();
    await h.clock.advance(24 * 60 * MINUTE);
    expect(h.sent.map((s) => s.at - h.sent[0]!.at)).toEqual([0, 5 * MINUTE, 20 * MINUTE]);
  });

  it('a network error counts as not confirmed', async () => {
    const clock = createManualClock();
    let calls = 0;
    const sandbox = createSandbox({
      clock,
      fetch: (async () => {
        calls++;
        throw new TypeError('fetch failed');
      }) as unknown as typeof fetch,
    });
    open = sandbox;
    const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' };
    const created = sandbox.handle({
      method: 'POST',
      path: '/api/v2/payin',
      headers: auth,
      body: JSON.stringify(payIn()),
    });
    const ticket = (created.body as { data: { ticket: string } }).data.ticket;
    sandbox.handle({
      method: 'POST',
      path: '/api/v1/sandbox/payin/confirm',
      headers: auth,
      body: { transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' },
    });
    await clock.advance(24 * 60 * MINUTE);
    expect(calls).toBe(6);
    expect(sandbox.deliveries[0]!.attempts[0]!.error).toMatch(/fetch failed/);
  });
});

describe('delivery content (spec "Events", payload fields and rules 1–2)', () => {
  it('POSTs JSON to ipn_url with x-trx-signature (default json scheme) and a <name>/1.1 User-Agent', async () => {
    const h = harness(() => 200);
    open = h.sandbox;
    const { ticket, body } = h.approve();
    await h.clock.advance(0);
    const [sent] = h.sent;
    expect(sent!.url).toBe(IPN);
    expect(sent!.headers['content-type']).toBe('application/json');
    expect(sent!.headers['user-agent']).toMatch(/^[\w.-]+\/1\.1$/);
    expect(sent!.headers['x-trx-signature']).toBe(
      computeWebhookSignature({ token: 'demo-co-token', ticket, reference: body.reference }),
    );
    expect(JSON.parse(sent!.body)).toStrictEqual({
      top_status: 'APPROVED',
      top_ticket: ticket,
      top_reference: body.reference,
      top_amount: 50_000,
      top_currency: 'COP',
      top_payment_method: 'BREB',
      top_bank_name: null,
      top_response_message: 'Transaction approved',
      top_user: CUSTOMER_CO,
    });
    const event = verifyWebhook(sent!.body, sent!.headers, { token: 'demo-co-token' });
    expect(event.top_ticket).toBe(ticket);
  });

  it('no ipn_url: no delivery; webhooks: false records without sending', async () => {
    const h = harness(() => 200, { webhooks: false });
    open = h.sandbox;
    const { ipn_url: _ipn, ...withoutIpn } = payIn();
    h.approve(withoutIpn as ReturnType<typeof payIn>);
    h.approve();
    await h.clock.advance(MINUTE);
    expect(h.sent).toHaveLength(0);
    expect(h.sandbox.deliveries.map((d) => d.state)).toEqual(['disabled']);
  });
});

describe('over real HTTP with the real clock', () => {
  it('retries a failing receiver on the scaled schedule until it answers 200, then it verifies', async () => {
    const received: { at: number; body: string; headers: Record<string, string | string[] | undefined> }[] =
      [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        received.push({ at: performance.now(), body, headers: req.headers });
        res.writeHead(received.length < 3 ? 500 : 200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const ipn = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/ipn`;
    const sandbox = createSandbox({ timeScale: 0.0001 }); // 5 min → 30 ms, 15 min → 90 ms
    open = sandbox;
    const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' };
    const body = payIn({ ipn_url: ipn });
    const ticket = (
      sandbox.handle({ method: 'POST', path: '/api/v2/payin', headers: auth, body }).body as {
        data: { ticket: string };
      }
    ).data.ticket;
    sandbox.handle({
      method: 'POST',
      path: '/api/v1/sandbox/payin/confirm',
      headers: auth,
      body: { transaction_id: ticket, payment_method: 'BREB', status: 'APPROVED' },
    });
    const delivery = await sandbox.waitForDelivery((d) => d.state === 'delivered', { timeoutMs: 5_000 });
    receiver.close();
    expect(received).toHaveLength(3);
    expect(delivery.attempts.map((a) => a.status)).toEqual([500, 500, 200]);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(25);
    expect(received[2]!.at - received[1]!.at).toBeGreaterThanOrEqual(85);
    const event = verifyWebhook(received[2]!.body, received[2]!.headers, { token: 'demo-co-token' });
    expect(event).toMatchObject({
      top_status: 'APPROVED',
      top_ticket: ticket,
      top_reference: body.reference,
    });
  });
});
