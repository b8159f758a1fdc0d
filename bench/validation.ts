/**
 * The validation layer alone, in process: `safeParse` of a `payin.create` body and `readResponse`
 * of its answer's data, in µs per call (median of 7 rounds × 20,000). `npx tsx bench/validation.ts`.
 */

import { readResponse, safeParse } from '../src/schemas/kit.js';
import { PayInCreateParamsSchema } from '../src/schemas/payin.js';
import { PayInCreatedSchema } from '../src/schemas/payin-result.js';
import { TransactionSchema } from '../src/schemas/transaction.js';
import { payinEnvelope, payinParams, transactionEnvelope } from './fixtures.js';

const created = JSON.parse(payinEnvelope).data;
const transaction = JSON.parse(transactionEnvelope).data[0];
const tasks: Record<string, () => unknown> = {
  'request: safeParse(PayInCreateParamsSchema)': () => safeParse(PayInCreateParamsSchema, payinParams),
  'response: readResponse(PayInCreatedSchema)': () => readResponse(PayInCreatedSchema, created, false),
  'response: readResponse(TransactionSchema)': () => readResponse(TransactionSchema, transaction, false),
};
const COUNT = 20_000;
const results = new Map<string, number[]>();
for (let round = 0; round < 8; round++) {
  for (const [name, task] of Object.entries(tasks)) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < COUNT; i++) task();
    const micros = Number(process.hrtime.bigint() - start) / 1000 / COUNT;
    if (round > 0) results.set(name, [...(results.get(name) ?? []), micros]);
  }
}
for (const [name, values] of results) {
  const sorted = [...values].sort((a, b) => a - b);
  console.log(`${name}: ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} µs`);
}
