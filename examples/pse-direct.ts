/**
 * PSE direct (Colombia): list the PSE banks, create a PayIn with bank + person_type, and wait
 * for the final status. In the sandbox the bank "Banka" completes the flow by itself: the
 * test e-mail approves, any other address rejects (spec: PSE cannot be sandbox-confirmed).
 *
 *   npm run example:pse
 */
import { connectSandbox, SANDBOX_PSE_APPROVED_EMAIL } from 'payinout/testing';

const { client, simulated, close } = await connectSandbox({ country: 'CO' });
// Against staging, use the test address the service's support gave you.
const testEmail = simulated
  ? SANDBOX_PSE_APPROVED_EMAIL
  : (process.env.PAYINOUT_PSE_TEST_EMAIL ?? SANDBOX_PSE_APPROVED_EMAIL);

try {
  const banks = await client.payin.listPseBanks();
  const banka = banks.find((bank) => bank.name.toLowerCase() === 'banka');
  if (!banka) throw new Error('the sandbox bank Banka is not in the PSE bank list');
  console.log(`pse: ${banks.length} banks; sandbox bank ${banka.name} = ${banka.code}`);

  const payin = await client.payin.create({
    reference: `pse-${Date.now()}`,
    amount: 35_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'PSE',
    description: 'PSE direct demo',
    redirect_url: 'https://shop.example/return',
    customer_data: {
      legal_doc: '1020304050',
      legal_doc_type: 'CC',
      phone_code: '57',
      phone_number: '3001234567',
      email: testEmail,
      full_name: 'Ana Gomez',
      bank: banka.code,
      person_type: 'NATURAL',
    },
  });
  console.log(`pse: PayIn ${payin.ticket}; send the customer to ${payin.payment_url}`);

  const final = await client.transactions.waitForFinalStatus(payin.ticket, {
    intervalMs: 250,
    timeoutMs: 60_000,
  });
  console.log(`pse: final status ${final.status} (CUS ${final.cus ?? 'n/a'})`);
  if (final.status !== 'APPROVED') throw new Error(`expected APPROVED, got ${final.status}`);
} finally {
  await close();
}
