/**
 * `client.payout.createMany()`: a PayOut batch over the public `payout.create` and
 * `transactions.get`, through the engine the CLI's `payouts send` uses too (bulk/batch.ts).
 */

import { runPayOutBatch } from '../bulk/batch.js';
import type { BatchClient, PayOutBatchOptions, PayOutBatchResult } from '../bulk/types.js';
import { ConfigurationError } from '../core/errors.js';
import type { PayOutCreateParams } from '../schemas/payout.js';

export async function createPayOutBatch(
  client: BatchClient,
  items: readonly PayOutCreateParams[],
  options: PayOutBatchOptions = {},
): Promise<PayOutBatchResult[]> {
  if (!Array.isArray(items)) {
    throw new ConfigurationError('createMany takes an array of PayOut params; nothing was sent.');
  }
  const results: PayOutBatchResult[] = new Array(items.length);
  const run = () =>
    runPayOutBatch(client, items, {
      ...options,
      total: items.length,
      sink: (result, index) => {
        results[index] = result;
      },
    });
  // Observers hear the batch (a tracer: one span, each item a child) through the dispatcher.
  const { observers } = client;
  const start = { operation: 'payout.createMany', total: items.length } as const;
  await (observers ? observers.around('batch', start, run) : run());
  return results;
}
