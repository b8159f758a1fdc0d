// biome-ignore-all format: each @ts-expect-error must stay right above its one-line mistake.
/**
 * Realistic mistakes that must NOT compile: each `@ts-expect-error` below marks one, and tsc fails
 * with "Unused '@ts-expect-error' directive" for any that compiles. Compiled by `npm run typecheck`
 * against src/ and by scripts/check-types.mjs against the packed package. Nothing here runs.
 */
import {
  type ApiError,
  createWebhookHandler,
  isFinalStatus,
  type PayInCreateParamsFor,
  type PayInCustomerData,
  PaymentClient,
  type PayOutCustomerData,
  type WebhookEvent,
} from 'payinout';

const client = new PaymentClient({ username: 'u', password: 'p', token: 't', baseUrl: 'https://x.example' });
const customer: PayInCustomerData<'CO'> = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gómez',
};
const base = {
  reference: 'r',
  amount: 50_000,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BREB',
  description: 'Order',
  customer_data: customer,
} as const;
const payee: PayOutCustomerData<'CO'> = { ...customer, bank: 'B', account_number: '1', account_type: 'AHORRO' };
const payout = {
  reference: 'p',
  amount: 20_000,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BANK_TRANSFER',
  ipn_url: 'https://shop.example/ipn',
  customer_data: payee,
} as const;
const mx = { legal_doc_type: 'RFC', bank: 'STP', account_number: '002010077777777771' } as const;

export async function mistakes(error: ApiError, tx: Awaited<ReturnType<typeof client.transactions.get>>) {
  // --- PayIn params ---
  // @ts-expect-error 1. camelCase key: the PayIn would have no webhook
  await client.payin.create({ ...base, ipnUrl: 'https://shop.example/ipn' });
  // @ts-expect-error 2. camelCase redirect
  await client.payin.create({ ...base, redirectUrl: 'https://shop.example/back' });
  // @ts-expect-error 3. a request option inside the params
  await client.payin.create({ ...base, timeout: 5000 });
  // @ts-expect-error 4. currency of another country
  await client.payin.create({ ...base, currency: 'MXN' });
  // @ts-expect-error 5. a method Colombia does not have
  await client.payin.create({ ...base, payment_method: 'SPEI' });
  // @ts-expect-error 6. lower-case method
  await client.payin.create({ ...base, payment_method: 'pse' });
  // @ts-expect-error 7. PSE in Peru
  await client.payin.create({ ...base, country: 'PE', currency: 'PEN', payment_method: 'PSE' });
  // @ts-expect-error 8. NIT is a PayOut document type in Colombia, not a PayIn one
  await client.payin.create({ ...base, customer_data: { ...customer, legal_doc_type: 'NIT' } });
  // @ts-expect-error 9. a Colombian document type in Peru
  await client.payin.create({ ...base, country: 'PE', currency: 'PEN', payment_method: 'QR', customer_data: customer });
  // @ts-expect-error 10. PSE direct: bank without person_type
  await client.payin.create({ ...base, payment_method: 'PSE', customer_data: { ...customer, bank: '1022' } });
  // @ts-expect-error 11. PSE direct: person_type without bank
  await client.payin.create({ ...base, payment_method: 'PSE', customer_data: { ...customer, person_type: 'NATURAL' } });
  // @ts-expect-error 12. person_type outside the list
  await client.payin.create({ ...base, customer_data: { ...customer, bank: '1022', person_type: 'EMPRESA' } });
  // @ts-expect-error 13. a country the service does not serve
  await client.payin.create({ ...base, country: 'AR' });
  // @ts-expect-error 14. amount as a string
  await client.payin.create({ ...base, amount: '50000' });
  // @ts-expect-error 15. expiration_time as a string
  await client.payin.create({ ...base, expiration_time: '30' });
  // @ts-expect-error 16. lower-case currency
  await client.payin.create({ ...base, currency: 'cop' });
  // @ts-expect-error 17. description is required in v2
  await client.payin.create({ ...base, description: undefined });
  // @ts-expect-error 18. misspelled customer key
  await client.payin.create({ ...base, customer_data: { ...customer, fullName: 'Ana' } });
  const { email: _email, ...noEmail } = customer;
  // @ts-expect-error 19. customer without email
  await client.payin.create({ ...base, customer_data: noEmail });
  // @ts-expect-error 20. a PSE bank on a Peru PayIn
  await client.payin.create({ ...base, country: 'PE', currency: 'PEN', payment_method: 'QR', customer_data: { ...customer, legal_doc_type: 'DNI', bank: '1022' } });
  // @ts-expect-error 21. legacy PayIn in Mexico (v1 is CO/PE only)
  await client.payin.createLegacy({ ...base, country: 'MX', currency: 'MXN', payment_method: 'SPEI', ipn_url: 'https://a.example', redirect_url: 'https://a.example' });
  // @ts-expect-error 22. legacy PayIn without ipn_url
  await client.payin.createLegacy({ ...base, redirect_url: 'https://a.example' });
  // @ts-expect-error 23. a PayIn value annotated with the wrong country's shape
  const wrong: PayInCreateParamsFor<'PE'> = base;

  // --- PayOut params ---
  // @ts-expect-error 24. SPEI in Colombia
  await client.payout.create({ ...payout, payment_method: 'SPEI' });
  // @ts-expect-error 25. a Peruvian account type in Colombia
  await client.payout.create({ ...payout, customer_data: { ...payee, account_type: 'WALLET' } });
  // @ts-expect-error 26. Mexico SPEI with a savings account type
  await client.payout.create({ ...payout, country: 'MX', currency: 'MXN', payment_method: 'SPEI', customer_data: { ...payee, ...mx, account_type: 'AHORRO', clabe_number: mx.account_number } });
  // @ts-expect-error 27. Mexico SPEI without clabe_number
  await client.payout.create({ ...payout, country: 'MX', currency: 'MXN', payment_method: 'SPEI', customer_data: { ...payee, ...mx, account_type: 'CLABE' } });
  const { ipn_url: _ipn, ...noIpn } = payout;
  // @ts-expect-error 28. a PayOut needs ipn_url
  await client.payout.create(noIpn);
  // @ts-expect-error 29. camelCase account number
  await client.payout.create({ ...payout, customer_data: { ...payee, accountNumber: '1' } });
  // @ts-expect-error 30. Peru with pesos
  await client.payout.create({ ...payout, country: 'PE', currency: 'COP' });

  // --- Sandbox confirm ---
  // @ts-expect-error 31. DECLINED is not a sandbox confirm status
  await client.sandbox.confirmPayIn({ transaction_id: 't', payment_method: 'BREB', status: 'DECLINED' });
  // @ts-expect-error 32. lower-case status
  await client.sandbox.confirmPayOut({ transaction_id: 't', payment_method: 'SPEI', status: 'approved' });
  // @ts-expect-error 33. camelCase transactionId
  await client.sandbox.confirmPayIn({ transactionId: 't', payment_method: 'BREB', status: 'APPROVED' });

  // --- Results ---
  // @ts-expect-error 34. misspelled status
  if (tx.status === 'APPROVD') return;
  // @ts-expect-error 35. misspelled type_transaction
  if (tx.type_transaction === 'PAYINN') return;
  const created = await client.payin.create(base);
  // @ts-expect-error 36. camelCase result field
  console.log(created.paymentUrl);
  // @ts-expect-error 37. misspelled ticket
  console.log(created.tiket);
  // @ts-expect-error 38. misspelled transaction field
  console.log(created.transaction.referance);
  // @ts-expect-error 39. misspelled error identifier
  if (error.errorCode === 'ALREADY_FINALL') return;
  switch (error.errorCode) {
    // @ts-expect-error 40. misspelled identifier in a switch
    case 'NOTFOUND':
      return;
  }
  if (isFinalStatus(tx.status)) {
    // @ts-expect-error 41. isFinalStatus narrows: a final status is never PENDING
    if (tx.status === 'PENDING') return;
  }
  const confirmed = await client.sandbox.confirmPayIn({ transaction_id: 't', payment_method: 'QR', status: 'EXPIRED' });
  // @ts-expect-error 42. a sandbox confirm never answers PENDING
  if (confirmed.status === 'PENDING') return;
  return wrong;
}

export function onEvent(event: WebhookEvent) {
  // @ts-expect-error 43. misspelled webhook status
  return event.top_status === 'APROVED';
}

export function options() {
  // @ts-expect-error 44. an environment name that does not exist
  new PaymentClient({ username: 'u', password: 'p', token: 't', baseUrl: 'https://x.example', environment: 'prod' });
  // @ts-expect-error 45. the merchant token is required
  new PaymentClient({ username: 'u', password: 'p', baseUrl: 'https://x.example' });
  // @ts-expect-error 46. the per-call option is timeoutMs
  return client.merchant.getBalance({ timeout: 5000 });
}

export async function catchUpMistakes(): Promise<void> {
  // @ts-expect-error getMany takes an array of ids, not one id
  await client.transactions.getMany('order-1001');
  // @ts-expect-error an unknown option (concurency) does not compile
  await client.transactions.getMany(['order-1001'], { concurency: 4 });
}

export function receiverMistakes(): void {
  // @ts-expect-error a receiver needs a token or a client to check signatures with
  createWebhookHandler({ onEvent: () => {} });
  // @ts-expect-error client.webhooks verifies only: the receiver is createWebhookHandler({ client })
  client.webhooks.createHandler({ onEvent: () => {} });
  // @ts-expect-error client takes a PaymentClient, not its options
  createWebhookHandler({ client: { token: 't' }, onEvent: () => {} });
}
