/** verifyWebhook throughput on a realistic signed delivery (json scheme, string body). */
import { performance } from 'node:perf_hooks';
import type * as Sdk from '../src/index.js';
import type * as Testing from '../src/testing/index.js';
import { CREDENTIALS, LOOKUP_ID, payinParams } from './fixtures.js';

export function benchWebhook(sdk: typeof Sdk, testing: typeof Testing, durationMs = 2_000): number {
  const event = {
    top_status: 'APPROVED',
    top_ticket: LOOKUP_ID,
    top_reference: payinParams.reference,
    top_amount: '50000.00',
    top_currency: 'COP',
    top_payment_method: 'BREB',
    top_bank_name: 'Bancolombia',
    top_response_message: 'Approved',
    top_user: { ...payinParams.customer_data },
  };
  const { body, headers } = testing.buildWebhookDelivery(event, { token: CREDENTIALS.token });
  const options = { token: CREDENTIALS.token };
  for (let i = 0; i < 20_000; i++) sdk.verifyWebhook(body, headers, options);
  let ops = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (let i = 0; i < 10_000; i++) sdk.verifyWebhook(body, headers, options);
    ops += 10_000;
    elapsed = performance.now() - started;
  }
  return (ops / elapsed) * 1000;
}
