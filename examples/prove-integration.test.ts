/**
 * Prove your integration (docs/testing.md): a merchant's own test that makes the simulator
 * misbehave the way a real service and network do, then checks that every payout was made once
 * and every final status was recorded once.
 *
 * - 1,000 PayOuts through the SDK while 5 % of `payout.create` answers are dropped after the
 *   PayOut was made, and 1 % of every API request is answered 503;
 * - a webhook receiver (createWebhookHandler on node:http) whose deliveries are duplicated and
 *   reordered: each final status is followed by a validly signed, late PENDING.
 *
 *   npx vitest run --config vitest.staging.config.ts examples/prove-integration.test.ts
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebhookHandler, isFinalStatus, PaymentClient, type WebhookEvent } from 'payinout';
import { createSandbox, type SandboxServer, startSandboxServer } from 'payinout/testing';
import { afterAll, beforeAll, expect, it } from 'vitest';

const PAYOUTS = 1_000;
const credentials = { username: 'shop', password: 'shop-pass', token: 'shop-token' };

/** The merchant's database: one row per payout, its final status written once. */
class Payouts {
  readonly status = new Map<string, string>();
  readonly finalWrites = new Map<string, number>();

  /** What the merchant's webhook code does: a late PENDING never overwrites a final status. */
  apply(event: WebhookEvent): void {
    const current = this.status.get(event.top_reference);
    if (current !== undefined && isFinalStatus(current)) return;
    this.status.set(event.top_reference, event.top_status);
    if (isFinalStatus(event.top_status)) {
      this.finalWrites.set(event.top_reference, (this.finalWrites.get(event.top_reference) ?? 0) + 1);
    }
  }
}

const db = new Payouts();
let sandbox: SandboxServer;
let receiver: Server;
let client: PaymentClient;
let ipnUrl: string;

beforeAll(async () => {
  const simulator = createSandbox({
    seed: 2026, // the same seed and sequence of requests fire the same faults; replayFaults repeats a run's
    timeScale: 0.0001, // webhook retries after minutes come after milliseconds
    merchants: [{ ...credentials, country: 'CO', balance: 1_000_000_000 }],
    faults: [
      { operation: 'payout.create', kind: 'drop-after-commit', rate: 0.05 },
      { operation: '*', kind: 'status', status: 503, rate: 0.01 },
      { operation: 'webhook', kind: 'duplicate', rate: 0.3 },
      { operation: 'webhook', kind: 'reorder', rate: 0.5 },
    ],
  });
  sandbox = await startSandboxServer({ sandbox: simulator });
  const handler = createWebhookHandler({ token: credentials.token, onEvent: (event) => db.apply(event) });
  receiver = createServer((req, res) => handler.node(req, res));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  ipnUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;
  client = new PaymentClient({ ...credentials, baseUrl: sandbox.url, maxRetries: 4 });
});

afterAll(async () => {
  await sandbox?.close();
  receiver?.close();
});

/** The merchant's payout code: one reference per payout, retried with the same reference. */
async function pay(reference: string): Promise<string> {
  for (let attempt = 1; ; attempt++) {
    try {
      const payout = await client.payout.create({
        reference,
        amount: 10_000,
        currency: 'COP',
        country: 'CO',
        payment_method: 'BANK_TRANSFER',
        ipn_url: ipnUrl,
        customer_data: {
          legal_doc: '1020304050',
          legal_doc_type: 'CC',
          phone_code: '57',
          phone_number: '3001234567',
          email: 'ana@example.com',
          full_name: 'Ana Gomez',
          bank: 'BANCOLOMBIA',
          account_number: '1234567890',
          account_type: 'AHORRO',
        },
      });
      return payout.ticket;
    } catch (error) {
      if (attempt === 5) throw error; // the SDK already settled lost answers by reference
    }
  }
}

async function confirm(ticket: string, status: 'APPROVED' | 'REJECTED'): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await client.sandbox.confirmPayOut({ transaction_id: ticket, payment_method: 'BANK_TRANSFER', status });
      return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
  }
}

/** Runs `task` over `items`, `lanes` at a time. */
async function inLanes<T>(items: readonly T[], lanes: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await task(items[next++]!);
  };
  await Promise.all(Array.from({ length: lanes }, lane));
}

it('pays each reference once and records every final status once, under faults', async () => {
  const references = Array.from({ length: PAYOUTS }, (_, i) => `payout-${i}`);
  const tickets = new Map<string, string>();
  await inLanes(references, 25, async (reference) => {
    tickets.set(reference, await pay(reference));
  });
  await inLanes(references, 25, async (reference, i = Number(reference.slice(7))) => {
    await confirm(tickets.get(reference)!, i % 10 === 0 ? 'REJECTED' : 'APPROVED');
  });
  await expect.poll(() => db.finalWrites.size, { timeout: 15_000, interval: 50 }).toBe(PAYOUTS);
  await sandbox.sandbox.flushWebhooks();

  // One payout per reference on the service's side.
  const made = [...sandbox.sandbox.transactions.values()].filter((t) => t.type === 'PAYOUT');
  expect(made).toHaveLength(PAYOUTS);
  expect(new Set(made.map((t) => t.reference)).size).toBe(PAYOUTS);
  // Every final status recorded once, and it is the service's.
  for (const t of made) {
    expect(db.finalWrites.get(t.reference)).toBe(1);
    expect(db.status.get(t.reference)).toBe(t.status);
  }
  // The faults did happen: otherwise this test would prove nothing.
  const fired = Object.fromEntries(
    sandbox.sandbox.faults.stats().map((s) => [`${s.operation} ${s.kind}`, s.fired]),
  );
  expect(fired['payout.create drop-after-commit']).toBeGreaterThan(20);
  expect(fired['* status']).toBeGreaterThan(5);
  expect(fired['webhook duplicate']).toBeGreaterThan(100);
  expect(fired['webhook reorder']).toBeGreaterThan(100);
});
