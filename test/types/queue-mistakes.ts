// biome-ignore-all format: each @ts-expect-error must stay right above its one-line mistake.
/**
 * The queue's items are createMany's (PayOut params, exact, discriminated by country): each
 * mistake below must NOT compile (tsc fails on an unused @ts-expect-error). Compiled by
 * `npx tsc --noEmit` against the source (tsconfig paths), and by scripts/check-types.mjs against
 * the packed package under TypeScript 5.9 and 7, in every module configuration; nothing here runs.
 */
import type { Queue } from 'bullmq';
import type { PayInCreateParams, PayOutCreateParams } from 'payinout';
import { enqueuePayOuts } from 'payinout/bullmq';

const payee = {
  legal_doc: '1020304050',
  legal_doc_type: 'CC',
  phone_code: '57',
  phone_number: '3001234567',
  email: 'ana@example.com',
  full_name: 'Ana Gómez',
  bank: 'BANCOLOMBIA',
  account_number: '1',
  account_type: 'AHORRO',
} as const;
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

export async function queueMistakes(queue: Queue, payins: PayInCreateParams[], payouts: PayOutCreateParams[]) {
  await enqueuePayOuts(queue, payouts, { itemsPerJob: 50 });
  await enqueuePayOuts(queue, [payout]);
  // @ts-expect-error 1. PayIns are not PayOuts
  await enqueuePayOuts(queue, payins);
  // @ts-expect-error 2. Mexico SPEI without clabe_number
  await enqueuePayOuts(queue, [{ ...payout, country: 'MX', currency: 'MXN', payment_method: 'SPEI', customer_data: { ...payee, ...mx, account_type: 'CLABE' } }]);
  // @ts-expect-error 3. a field the service does not know (exact)
  await enqueuePayOuts(queue, [{ ...payout, ipnUrl: 'https://shop.example/ipn' }]);
  // @ts-expect-error 4. a method Colombia does not have
  await enqueuePayOuts(queue, [{ ...payout, payment_method: 'SPEI' }]);
  // @ts-expect-error 5. itemsPerJob is a number
  await enqueuePayOuts(queue, [payout], { itemsPerJob: '50' });
  // @ts-expect-error 6. an unknown option
  await enqueuePayOuts(queue, [payout], { itemPerJob: 50 });
}
