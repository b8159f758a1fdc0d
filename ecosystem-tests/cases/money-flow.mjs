/**
 * The runtime-neutral part of every case: a money flow through PaymentClient against the
 * simulator, and a captured webhook delivery checked by verifyWebhook and by the Fetch form of
 * createWebhookHandler. Only fetch, Request, Response and the `payinout` module handed in are
 * used, so Node, Bun, Deno, workerd and the Edge Runtime run this same code.
 */

/** Merchant seeded by the simulator by default (one demo merchant per country). */
export const MERCHANT = { username: 'demo-co', password: 'demo-co-pass', token: 'demo-co-token' };
const AMOUNT = 150_000;

/** The payer or beneficiary of every case's requests (a PayOut adds its bank account). */
export const CUSTOMER = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana.gomez@example.com',
  full_name: 'Ana Gomez',
};

export function check(condition, message) {
  if (!condition) throw new Error(`check failed: ${message}`);
}

/** PayIn create → sandbox confirm → lookup → balance; every result checked against the flow. */
export async function moneyFlow(payinout, { baseUrl, ipnUrl, label }) {
  const client = new payinout.PaymentClient({ ...MERCHANT, baseUrl, maxRetries: 0 });
  const before = await client.merchant.getBalance();
  const reference = `eco-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const created = await client.payin.create({
    reference,
    amount: AMOUNT,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: `ecosystem test on ${label}`,
    ...(ipnUrl ? { ipn_url: ipnUrl } : {}),
    customer_data: CUSTOMER,
  });
  check(typeof created.ticket === 'string' && created.ticket !== '', 'payin.create returns a ticket');
  check(created.lastResponse?.status === 200, `payin.create lastResponse.status is 200`);
  const brebKey = String(created.payment_information?.breb_key ?? created.ticket);
  const confirmed = await client.sandbox.confirmPayIn({
    transaction_id: brebKey,
    payment_method: 'BREB',
    status: 'APPROVED',
  });
  check(confirmed.status === 'APPROVED', `sandbox confirm answered ${confirmed.status}`);
  const found = await client.transactions.get(reference);
  check(found.reference === reference, 'lookup by reference finds the PayIn');
  check(found.status === 'APPROVED', `lookup status is ${found.status}`);
  const after = await client.merchant.getBalance();
  check(after.balance === before.balance + AMOUNT, `balance ${before.balance} → ${after.balance}`);
  const missing = await client.transactions.get(`no-such-${reference}`).catch((error) => error);
  check(missing instanceof payinout.NotFoundError, `unknown ticket is NotFoundError (got ${missing?.name})`);
  check(missing instanceof payinout.PayinoutError, 'NotFoundError is a PayinoutError');
  return { ticket: created.ticket, status: found.status, balance: `${before.balance}→${after.balance}` };
}

/**
 * A delivery the simulator really sent ({ body, headers }): verifyWebhook accepts it (where the
 * runtime has node:crypto, `sync`), the Fetch handler runs onEvent once (a resend is a
 * duplicate), and a forged signature is refused by both.
 */
export async function webhookChecks(payinout, { body, headers, token, sync = true }) {
  const forgedHeaders = { ...headers, 'x-trx-signature': '0'.repeat(64) };
  const done = [];
  if (sync) {
    const event = payinout.verifyWebhook(body, headers, { token });
    check(event.top_status === 'APPROVED', `verifyWebhook: status ${event.top_status}`);
    const forged = catching(() => payinout.verifyWebhook(body, forgedHeaders, { token }));
    check(forged instanceof payinout.WebhookVerificationError, 'verifyWebhook refuses a forged signature');
    done.push('verifyWebhook');
  }
  if (payinout.verifyWebhookAsync) {
    const event = await payinout.verifyWebhookAsync(body, headers, { token });
    check(event.top_status === 'APPROVED', `verifyWebhookAsync: status ${event.top_status}`);
    const forged = await payinout.verifyWebhookAsync(body, forgedHeaders, { token }).catch((e) => e);
    check(
      forged instanceof payinout.WebhookVerificationError,
      'verifyWebhookAsync refuses a forged signature',
    );
    done.push('verifyWebhookAsync');
  }
  const events = [];
  const handler = payinout.createWebhookHandler({ token, onEvent: (event) => void events.push(event) });
  const post = (h) =>
    handler(new Request('http://receiver.test/webhooks', { method: 'POST', headers: h, body }));
  const first = await post(headers);
  check(first.status === 200, `Fetch handler answered ${first.status} to a genuine delivery`);
  const resend = await post(headers);
  check(resend.status === 200, `Fetch handler answered ${resend.status} to a resend`);
  check(events.length === 1 && events[0].top_status === 'APPROVED', `onEvent ran ${events.length} times`);
  const forged = await post(forgedHeaders);
  check(forged.status === 401, `Fetch handler answered ${forged.status} to a forged signature`);
  done.push('createWebhookHandler (Fetch)');
  return done;
}

function catching(fn) {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The headers a receiver hands to the handler (the ones the simulator signs and describes). */
export function deliveryHeaders(headers) {
  const keep = ['content-type', 'user-agent', 'x-trx-signature'];
  return Object.fromEntries(Object.entries(headers).filter(([name]) => keep.includes(name.toLowerCase())));
}
