/**
 * Bulk payouts from code: pay a marketplace's sellers with `client.payout.createMany`, watch the
 * progress, then run the same batch again — as you would after a crash — and see every PayOut
 * `recovered`, none sent twice. Guide: docs/bulk-payouts.md.
 *
 *   npx tsx examples/bulk-payouts.ts
 */
import { type PayOutCreateParams, ReferenceConflictError } from 'payinout';
import { connectSandbox } from 'payinout/testing';

// The local simulator, with a funded merchant (against staging, PAYINOUT_* variables are used).
const { client, close } = await connectSandbox({
  merchants: [
    {
      username: 'market-co',
      password: 'market-co-pass',
      token: 'market-co-token',
      country: 'CO',
      balance: 5_000_000,
    },
  ],
});

const run = Date.now().toString(36); // staging keeps references: a fresh set per run of this example
const sellers = [
  { id: 101, name: 'Ana Pérez', doc: '1020304050', account: '12345678901', owed: 185_000 },
  { id: 102, name: 'Luis Gómez', doc: '79865432', account: '00998877665', owed: 92_500 },
  { id: 103, name: 'Marta Ruiz', doc: '52147896', account: '3205554433', owed: 61_000 },
];

// The reference is what makes a batch safe to run again: derive it from what you pay (seller and
// period), never from the time of the attempt.
const payouts: PayOutCreateParams[] = sellers.map((s) => ({
  reference: `seller-${s.id}-2025-06-${run}`,
  amount: s.owed,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BANK_TRANSFER',
  ipn_url: 'https://shop.example/webhooks/payinout',
  customer_data: {
    legal_doc: s.doc,
    legal_doc_type: 'CC',
    phone_code: '57',
    phone_number: '3001234567',
    email: `seller${s.id}@example.com`,
    full_name: s.name,
    bank: 'BANCOLOMBIA',
    account_number: s.account,
    account_type: 'AHORRO',
  },
  metadata: { seller_id: s.id, period: '2025-06' },
}));

try {
  const results = await client.payout.createMany(payouts, {
    concurrency: 4,
    onProgress: (p) => console.log(`bulk: ${p.done}/${p.total} (created ${p.created}, failed ${p.failed})`),
  });
  for (const r of results) console.log(`bulk: ${r.reference} → ${r.outcome} ${r.ticket ?? r.error?.message}`);
  if (results.some((r) => r.outcome !== 'created')) throw new Error('expected every PayOut to be created');

  // After a crash you do not know what was sent: run the same batch again. Nothing is sent twice.
  const again = await client.payout.createMany(payouts);
  console.log(`bulk: re-run → ${again.map((r) => r.outcome).join(', ')}`);
  if (again.some((r) => r.outcome !== 'recovered')) throw new Error('expected every PayOut to be recovered');

  // A reference reused for a different payout is refused, naming the field; nothing is sent.
  const [conflict] = await client.payout.createMany([{ ...payouts[0]!, amount: 999_000 }]);
  if (!(conflict?.error instanceof ReferenceConflictError))
    throw new Error('expected a ReferenceConflictError');
  console.log(`bulk: reused reference → ${conflict.outcome}, field ${conflict.error.field}`);
} finally {
  await close();
}
