/**
 * Fills a simulator with many transactions through its request core (what a week of CI runs
 * leaves behind): PayIns of every demo merchant, most of them confirmed (APPROVED, REJECTED,
 * EXPIRED where the method allows it), some still PENDING. Used by the dashboard bench and the
 * screenshot script; nothing here is timed.
 */
import type * as Testing from '../src/testing/index.js';

type Sandbox = Testing.Sandbox;

/** One valid PayIn per merchant country (QR in Peru allows every confirm status). */
const PAYIN_BY_COUNTRY = {
  CO: { currency: 'COP', method: 'BREB', doc: 'CC', code: '57', phone: '3001234567', amount: 150_000 },
  PE: { currency: 'PEN', method: 'QR', doc: 'DNI', code: '51', phone: '987654321', amount: 120 },
} as const;

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

/** Creates `count` PayIns across the CO and PE demo merchants; returns how many were left PENDING. */
export function seedTransactions(
  sandbox: Sandbox,
  count: number,
  { pendingEvery = 7, from = 0 } = {},
): number {
  const merchants = sandbox.merchants.filter((m) => m.country === 'CO' || m.country === 'PE');
  let pending = 0;
  for (let i = from; i < from + count; i++) {
    const merchant = merchants[i % merchants.length]!;
    const kind = PAYIN_BY_COUNTRY[merchant.country as keyof typeof PAYIN_BY_COUNTRY];
    const headers = {
      authorization: basic(merchant.username, merchant.password),
      'token-top': merchant.token,
      'content-type': 'application/json',
    };
    const reference = `order-${String(100_000 + i)}-${merchant.country.toLowerCase()}`;
    const created = sandbox.handle({
      method: 'POST',
      path: '/api/v2/payin',
      headers,
      body: JSON.stringify({
        reference,
        amount: kind.amount + (i % 97),
        currency: kind.currency,
        country: merchant.country,
        payment_method: kind.method,
        description: `Order ${i}`,
        customer_data: {
          legal_doc: String(10_000_000 + i),
          legal_doc_type: kind.doc,
          phone_code: kind.code,
          phone_number: kind.phone,
          email: `buyer${i}@example.com`,
          full_name: 'Ana María Pérez',
        },
      }),
    });
    if (created.status !== 200) throw new Error(`seed create answered ${created.status}`);
    const ticket = (created.body as { data: { ticket: string } }).data.ticket;
    if (i % pendingEvery === 0) {
      pending++;
      continue;
    }
    const status = i % 5 === 0 ? 'REJECTED' : i % 11 === 0 && kind.method === 'QR' ? 'EXPIRED' : 'APPROVED';
    const confirmed = sandbox.handle({
      method: 'POST',
      path: '/api/v1/sandbox/payin/confirm',
      headers,
      body: JSON.stringify({ transaction_id: ticket, payment_method: kind.method, status }),
    });
    if (confirmed.status !== 200) throw new Error(`seed confirm answered ${confirmed.status}`);
  }
  return pending;
}
