/**
 * A halt record that cannot be read (truncated by a failed write, or another program's value
 * under payinout's key) is a typed failure, as an unreadable result already is: readPayOutBatch
 * says so in `halted`, and a worker treats the batch as stopped (nothing sent, each job's result
 * a BatchHaltedError naming the record) — never a raw SyntaxError.
 */
import { describe, expect, it } from 'vitest';
import { enqueuePayOuts, HaltRecordError, readPayOutBatch } from '../../src/bullmq/index.js';
import { redisOf } from '../../src/bullmq/keys.js';
import { BatchHaltedError } from '../../src/index.js';
import { settled } from './batch.js';
import { payout } from './server.js';
import { queueSuite, skipQueue, startWorker } from './support.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => payout(i + 1));
const suite = queueSuite();

const haltKey = (batchId: string) => `${suite.q.prefix}:${suite.q.name}:payinout:batch:${batchId}:halt`;

describe.skipIf(skipQueue)('payinout/bullmq: an unreadable halt record', () => {
  for (const record of ['{"name":"AuthenticationError","mess', 'null', '42', 'not json']) {
    it(`readPayOutBatch on halt record ${JSON.stringify(record)}: halted says it could not be read`, async () => {
      const { batchId } = await enqueuePayOuts(suite.q.queue, items(2));
      await (await redisOf(suite.q.queue)).set(haltKey(batchId), record);
      const state = await readPayOutBatch(suite.q.queue, batchId);
      expect(state.halted).toMatch(/halt record of the batch .* could not be read/);
      expect(state).toMatchObject({ total: 2, pending: 2 });
    });
  }

  it('a worker meeting a truncated halt record sends nothing: each job fails as halted, typed', async () => {
    const batch = items(6);
    const { batchId } = await enqueuePayOuts(suite.q.queue, batch);
    await (await redisOf(suite.q.queue)).set(haltKey(batchId), '{"name":"AuthenticationError","status":40');
    suite.workers = [await startWorker(suite.q, suite.server.url, 'worker-1')];
    const result = await settled(suite.q, batchId, 20_000);
    expect(result).toMatchObject({ total: 6, failed: 6, created: 0 });
    for (const item of result.results) {
      expect(item.error).toBeInstanceOf(BatchHaltedError);
      expect((item.error as BatchHaltedError).stoppedBy).toBeInstanceOf(HaltRecordError);
      expect(item.error?.message).toMatch(/was not sent: .* could not be read/);
    }
    expect(suite.server.requests.filter((r) => r.method === 'POST')).toEqual([]);
  }, 30_000);
});
