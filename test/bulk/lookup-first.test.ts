/**
 * A batch looks every item up before creating it, so "not found" is the answer most of its
 * lookups get: it is read as an answer (no NotFoundError built for it), while the public
 * `transactions.get` and `getMany` still give their NotFoundError. Through a real node:http server
 * in front of the simulator, with a recording OpenTelemetry tracer.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { otel, SpanStatusCode } from '../tracing/otel.js';
import { type BulkServer, batch, exactlyOnce, startBulkServer } from './server.js';

let server: BulkServer;
beforeEach(async () => {
  server = await startBulkServer();
});
afterEach(() => server.close());

const LOOKUP = 'GET /api/v1/transaction/{id}';

describe("a batch's lookup-first", () => {
  it('a miss is its answer: the lookup span ends ok with status 404 and no error, then the create is sent', async () => {
    const trace = otel();
    const items = batch(3);
    const results = await server.client({ tracer: trace.tracer }).payout.createMany(items);
    expect(results.map((r) => r.outcome)).toEqual(['created', 'created', 'created']);
    expect(
      exactlyOnce(
        server,
        items.map((i) => i.reference),
      ),
    ).toEqual([]);
    const lookups = trace.named(LOOKUP);
    expect(lookups).toHaveLength(3);
    for (const span of lookups) {
      expect(span.attributes).toMatchObject({
        'http.response.status_code': 404,
        'payinout.attempts': 1,
        'payinout.outcome': 'ok',
      });
      expect(span.attributes['error.type']).toBeUndefined();
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    }
  });

  it('transactions.get on the same client still rejects a miss with a NotFoundError', async () => {
    const client = server.client();
    const [item] = batch(1);
    await client.payout.createMany([item!]);
    const missing = client.transactions.get('no-such-reference');
    await expect(missing).rejects.toBeInstanceOf(NotFoundError);
    await expect(missing).rejects.toMatchObject({ status: 404 });
    const many = await client.transactions.getMany(['no-such-reference']);
    expect(many[0]).toMatchObject({ outcome: 'not_found' });
    expect(many[0]!.error).toBeInstanceOf(NotFoundError);
  });
});
