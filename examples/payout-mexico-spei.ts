/**
 * Mexico SPEI: fund the balance with a SPEI PayIn (confirmed by its assigned CLABE), then pay
 * out to a CLABE. The SDK checks the CLABE rules before sending (account_type CLABE, one valid
 * CLABE in account_number and clabe_number).
 *
 *   npm run example:spei
 */
import { isValidClabe, RequestValidationError } from 'payinout';
import { connectSandbox } from 'payinout/testing';

const { client, close } = await connectSandbox({ country: 'MX' });

const customer = {
  legal_doc: 'GOMA800101HDFRRN09',
  legal_doc_type: 'CURP',
  phone_code: '52',
  phone_number: '5512345678',
  email: 'maria.gomez@example.com',
  full_name: 'Maria Gomez',
};
// A test CLABE with a valid check digit (3-7-1 weights).
const clabe = '002010077777777771';

try {
  const payin = await client.payin.create({
    reference: `spei-in-${Date.now()}`,
    amount: 2_500,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    description: 'Top-up by SPEI transfer',
    customer_data: customer,
  });
  const assigned = String(payin.payment_information?.clabe ?? payin.ticket);
  console.log(
    `spei: PayIn ${payin.ticket}; the customer transfers to CLABE ${assigned} (valid: ${isValidClabe(assigned)})`,
  );
  await client.sandbox.confirmPayIn({ transaction_id: assigned, payment_method: 'SPEI', status: 'APPROVED' });
  console.log(`spei: balance ${(await client.merchant.getBalance()).balance_formatted}`);

  // The SDK refuses an account_type other than CLABE before anything is sent.
  try {
    await client.payout.create({
      reference: `spei-bad-${Date.now()}`,
      amount: 100,
      currency: 'MXN',
      country: 'MX',
      payment_method: 'SPEI',
      ipn_url: 'https://example.com/webhooks',
      customer_data: {
        ...customer,
        bank: 'BBVA_MEXICO',
        // @ts-expect-error TypeScript already refuses account_type AHORRO for Mexico; from JavaScript it is the error below.
        account_type: 'AHORRO',
        account_number: clabe,
        clabe_number: clabe,
      },
    });
    throw new Error('expected a RequestValidationError');
  } catch (error) {
    if (!(error instanceof RequestValidationError)) throw error;
    console.log(`spei: refused before sending: ${error.issues.map((i) => i.path).join(', ')}`);
  }

  const payout = await client.payout.create({
    reference: `spei-out-${Date.now()}`,
    amount: 1_000,
    currency: 'MXN',
    country: 'MX',
    payment_method: 'SPEI',
    ipn_url: 'https://example.com/webhooks',
    customer_data: {
      ...customer,
      bank: 'BBVA_MEXICO',
      account_type: 'CLABE',
      account_number: clabe,
      clabe_number: clabe,
    },
  });
  console.log(`spei: PayOut ${payout.ticket} created, 1,000 MXN reserved`);
  const result = await client.sandbox.confirmPayOut({
    transaction_id: payout.ticket,
    payment_method: 'SPEI',
    status: 'APPROVED',
  });
  const tx = await client.transactions.get(payout.ticket);
  console.log(
    `spei: PayOut ${result.status}; lookup says ${tx.status}; balance ${(await client.merchant.getBalance()).balance_formatted}`,
  );
  if (tx.status !== 'APPROVED') throw new Error(`unexpected status ${tx.status}`);
} finally {
  await close();
}
