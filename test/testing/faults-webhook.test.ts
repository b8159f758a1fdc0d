/** Faults on webhook deliveries: duplicate, drop, delay, reorder — what the receiver gets. */
import { afterEach, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/index.js';
import {
  createManualClock,
  createSandbox,
  type FaultRuleInput,
  type Sandbox,
} from '../../src/testing/index.js';
import { basic, payIn } from './helpers.js';

const MINUTE = 60_000;

interface Sent {
  at: number;
  headers: Record<string, string>;
  body: string;
}

function harness(faults: FaultRuleInput[], answer = 200) {
  const clock = createManualClock();
  const sent: Sent[] = [];
  const fakeFetch = (async (_url: string, init: RequestInit) => {
    sent.push({ at: clock.now(), headers: init.headers as Record<string, string>, body: String(init.body) });
    return new Response('ok', { status: answer });
  }) as unknown as typeof fetch;
  const sandbox = createSandbox({ clock, fetch: fakeFetch, seed: 3, faults });
  open = sandbox;
  const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' };
  const post = (path: string, body: unknown) =>
    sandbox.handle({ method: 'POST', path, headers: auth, body: JSON.stringify(body) }).body as {
      data: { ticket: string };
    };
  const approve = () => {
    const body = payIn();
    const ticket = post('/api/v2/payin', body).data.ticket;
    post('/api/v1/sandbox/payin/confirm', {
      transaction_id: ticket,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    return ticket;
  };
  const events = () => sent.map((s) => (JSON.parse(s.body) as { top_status: string }).top_status);
  return { clock, sent, sandbox, approve, events };
}

let open: Sandbox | undefined;
afterEach(() => open?.close());

describe('webhook faults', () => {
  it('duplicate: the attempt is sent twice, byte for byte', async () => {
    const h = harness([{ operation: 'webhook', kind: 'duplicate' }]);
    h.approve();
    await h.clock.advance(0);
    await h.sandbox.flushWebhooks();
    expect(h.sent).toHaveLength(2);
    expect(h.sent[0]!.body).toBe(h.sent[1]!.body);
    const attempt = h.sandbox.deliveries[0]!.attempts[0]!;
    expect(attempt.fault).toEqual({ rule: 'fault-1', kind: 'duplicate' });
    expect(attempt.duplicate).toEqual({ status: 200 });
  });

  it('drop: recorded as failed without being sent, then retried on the schedule', async () => {
    const h = harness([{ operation: 'webhook', kind: 'drop', times: 1 }]);
    h.approve();
    await h.clock.advance(0);
    await h.sandbox.flushWebhooks();
    expect(h.sent).toHaveLength(0);
    const delivery = h.sandbox.deliveries[0]!;
    expect(delivery.attempts[0]).toMatchObject({
      error: expect.stringMatching(/not sent: dropped by sandbox fault rule fault-1/),
    });
    expect(delivery.state).toBe('pending');
    await h.clock.advance(5 * MINUTE);
    await h.sandbox.flushWebhooks();
    expect(h.sent).toHaveLength(1);
    expect(delivery.state).toBe('delivered');
  });

  it('delay: the attempt goes out ms later', async () => {
    const h = harness([{ operation: 'webhook', kind: 'delay', ms: 2_000 }]);
    const start = h.clock.now();
    h.approve();
    await h.clock.advance(1_999);
    expect(h.sent).toHaveLength(0);
    await h.clock.advance(1);
    await h.sandbox.flushWebhooks();
    expect(h.sent.map((s) => s.at - start)).toEqual([2_000]);
    expect(h.sandbox.faults.stats()[0]).toMatchObject({ matched: 1, fired: 1 });
  });

  it('reorder: the final status first, then a validly signed PENDING of the same transaction', async () => {
    const h = harness([{ operation: 'webhook', kind: 'reorder' }]);
    const ticket = h.approve();
    await h.clock.advance(0);
    await h.sandbox.flushWebhooks();
    await h.clock.advance(0);
    await h.sandbox.flushWebhooks();
    expect(h.events()).toEqual(['APPROVED', 'PENDING']);
    const late = h.sent[1]!;
    const event = verifyWebhook(late.body, late.headers, { token: 'demo-co-token' });
    expect(event).toMatchObject({ top_ticket: ticket, top_status: 'PENDING' });
    const [, second] = h.sandbox.deliveries;
    expect(second).toMatchObject({ status: 'PENDING', reorderOf: h.sandbox.deliveries[0]!.id });
    expect(h.sandbox.faults.stats()[0]).toMatchObject({ matched: 1, fired: 1 });
    // Resend sends the transaction's own last event, never the fault's late PENDING.
    expect(h.sandbox.resendWebhook(ticket).status).toBe('APPROVED');
  });

  it("merchant narrows a webhook rule to that merchant's transactions", async () => {
    const h = harness([{ operation: 'webhook', kind: 'drop', merchant: 'demo-pe' }]);
    h.approve();
    await h.clock.advance(0);
    await h.sandbox.flushWebhooks();
    expect(h.sent).toHaveLength(1);
    expect(h.sandbox.faults.stats()[0]).toMatchObject({ matched: 0, fired: 0 });
  });
});
