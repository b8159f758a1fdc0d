/**
 * A claim holds for as long as onEvent runs (in memory; test/redis/lease.test.ts does the same
 * on Redis): the lease is renewed while the handler runs, `complete` succeeds only for the
 * claim's owner (its fencing token), and a lost or outlived lease is logged at error level.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  MemoryDedupeStore,
  WebhookDeduplicator,
} from '../../src/index.js';
import {
  delivery,
  recordingLogger,
  sampleEvent,
  serveHandler,
  sleep,
  TOKEN,
  whileRunning,
} from './support.js';

const event = { top_ticket: 'LEASE-1', top_status: 'APPROVED' };
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe('two receivers sharing one MemoryDedupeStore, onEvent slower than the lease', () => {
  it('the slow claim is renewed: the other receiver answers 409 throughout, then duplicate; onEvent ran once', async () => {
    const store = new MemoryDedupeStore();
    const runs: string[] = [];
    const receiver = async (name: string) => {
      const logger = recordingLogger();
      const handler = createWebhookHandler({
        token: TOKEN,
        logger,
        dedupe: new WebhookDeduplicator({ store, inFlightTtlMs: 300, logger }),
        onEvent: async () => {
          runs.push(name);
          await sleep(1_500); // five leases long
        },
      });
      const served = await serveHandler(handler);
      closers.push(served.close);
      return { ...served, logger };
    };
    const [a, b] = await Promise.all([receiver('a'), receiver('b')]);
    const genuine = delivery(sampleEvent({ top_ticket: 'SLOW-1' }));
    const during = await whileRunning(a.post(genuine), () => b.post(genuine), 320);
    expect(during.first.status).toBe(200);
    expect(during.statuses.length).toBeGreaterThanOrEqual(3); // B asked across at least 3 leases
    expect(new Set(during.statuses)).toEqual(new Set([409]));
    expect((await b.post(genuine)).body).toEqual({ received: true, result: 'duplicate' });
    expect(runs).toEqual(['a']);
    expect([...a.logger.lines, ...b.logger.lines]).toEqual([]); // nothing lost, nothing outlived
  });
});

describe('DedupeLease: fencing token', () => {
  it('complete after the lease was taken over is refused and logged; the new owner completes', async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    const logA = recordingLogger();
    const a = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: logA });
    const b = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: recordingLogger() });
    const { lease: leaseA } = await a.acquire(event);
    now += 101; // A stalled past its lease (no renewal: a frozen process)
    const { result, lease: leaseB } = await b.acquire(event);
    expect(result).toBe('new');
    expect(leaseB!.token).not.toBe(leaseA!.token);
    expect(await leaseA!.complete()).toBe(false);
    expect(leaseA!.lost).toBe(true);
    expect(logA.lines).toEqual([{ level: 'error', message: expect.stringMatching(/lease for .* was lost/) }]);
    expect(await store.get(WebhookDeduplicator.key(event))).toBe(leaseB!.token); // B's claim untouched
    expect(await b.claim(event)).toBe('in-flight');
    expect(await leaseB!.complete()).toBe(true);
    expect(await a.claim(event)).toBe('duplicate');
  });

  it('a lease that expired with no new owner still completes: the event is marked done', async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    const dedupe = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: recordingLogger() });
    const { lease } = await dedupe.acquire(event);
    now += 500;
    expect(await lease!.complete()).toBe(true);
    expect(await dedupe.claim(event)).toBe('duplicate');
  });

  it('a stale holder cannot release nor renew the new owner’s claim', async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    const a = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: recordingLogger() });
    const b = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: recordingLogger() });
    const { lease: stale } = await a.acquire(event);
    now += 101;
    const { lease: owner } = await b.acquire(event);
    await stale!.release();
    expect(await stale!.renew()).toBe(false);
    expect(await store.get(WebhookDeduplicator.key(event))).toBe(owner!.token);
  });

  it('the deduplicator-level claim/complete also fences: complete after a takeover answers false', async () => {
    let now = 1_000;
    const store = new MemoryDedupeStore({ now: () => now });
    const a = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: recordingLogger() });
    const b = new WebhookDeduplicator({ store, inFlightTtlMs: 100, logger: recordingLogger() });
    expect(await a.claim(event)).toBe('new');
    now += 101;
    expect(await b.claim(event)).toBe('new');
    expect(await a.complete(event)).toBe(false);
    expect(await b.complete(event)).toBe(true);
  });
});

describe('a handler that outlives or loses its lease is logged loudly', () => {
  it('renewals that the store cannot answer: error once the lease has expired', async () => {
    const memory = new MemoryDedupeStore();
    let hang = false;
    // Claims work; renewals hang once `hang` is set (a store gone unresponsive mid-handler).
    const store: DedupeStore = {
      setIfAbsent: (k, v, t) => memory.setIfAbsent(k, v, t),
      get: (k) => memory.get(k),
      set: (k, v, t) => memory.set(k, v, t),
      deleteIfEquals: (k, v) => memory.deleteIfEquals(k, v),
      replaceIfEquals: (k, e, v, t) => (hang ? new Promise(() => {}) : memory.replaceIfEquals(k, e, v, t)),
    };
    const logger = recordingLogger();
    const handler = createWebhookHandler({
      token: TOKEN,
      logger,
      dedupe: new WebhookDeduplicator({ store, inFlightTtlMs: 90, storeTimeoutMs: 20, logger }),
      onEvent: async () => {
        hang = true;
        await sleep(400);
        hang = false;
      },
    });
    const result = await handler.handle(delivery().body, delivery().headers);
    expect(result.status).toBe(200);
    const outlived = logger.lines.filter(
      (l) => l.level === 'error' && /outlived its dedupe lease/.test(l.message),
    );
    expect(outlived).toHaveLength(1);
  });

  it('a lease overwritten by someone else while onEvent runs: error logged at the next renewal', async () => {
    const store = new MemoryDedupeStore();
    const logger = recordingLogger();
    const genuine = delivery(sampleEvent({ top_ticket: 'STOLEN-1' }));
    const handler = createWebhookHandler({
      token: TOKEN,
      logger,
      dedupe: new WebhookDeduplicator({ store, inFlightTtlMs: 60, logger }),
      onEvent: async () => {
        await store.set('STOLEN-1:APPROVED', 'in-flight:someone-else', 60_000);
        await sleep(100);
      },
    });
    expect((await handler.handle(genuine.body, genuine.headers)).status).toBe(200);
    expect(logger.lines.some((l) => l.level === 'error' && /was lost while renewing/.test(l.message))).toBe(
      true,
    );
    expect(await store.get('STOLEN-1:APPROVED')).toBe('in-flight:someone-else');
  });
});
