/**
 * The validation layer alone, in process: a `payin.create` body and the data of its answer and of a
 * transaction lookup, each read by the package's `safeParse` (its compiled fast path, fast.ts) and
 * by zod's own `schema.safeParse` (what 0.4 ran), interleaved round by round; µs per call, median
 * of 7 rounds × 20,000 after one warm-up round. `npx tsx bench/validation.ts`.
 */

import { fastParse } from '../src/schemas/fast.js';
import { installFastPath, readResponse, safeParse } from '../src/schemas/kit.js';
import { PayInCreateParamsSchema } from '../src/schemas/payin.js';
import { PayInCreatedSchema } from '../src/schemas/payin-result.js';
import { TransactionSchema } from '../src/schemas/transaction.js';
import { payinEnvelope, payinParams, transactionEnvelope } from './fixtures.js';

// As the Node entry does (src/node/client.ts).
installFastPath(fastParse);
const created = JSON.parse(payinEnvelope).data;
const transaction = JSON.parse(transactionEnvelope).data[0];
const tasks: Record<string, () => unknown> = {
  'request: safeParse(PayInCreateParamsSchema)': () => safeParse(PayInCreateParamsSchema, payinParams),
  'request: zod PayInCreateParamsSchema.safeParse': () => PayInCreateParamsSchema.safeParse(payinParams),
  'response: readResponse(PayInCreatedSchema)': () => readResponse(PayInCreatedSchema, created, false),
  'response: zod PayInCreatedSchema.tolerant.safeParse': () => PayInCreatedSchema.tolerant.safeParse(created),
  'response: readResponse(TransactionSchema)': () => readResponse(TransactionSchema, transaction, false),
  'response: zod TransactionSchema.tolerant.safeParse': () =>
    TransactionSchema.tolerant.safeParse(transaction),
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
