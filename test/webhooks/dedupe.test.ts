import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  type DedupeEvent,
  isNewerStatus,
  MemoryDedupeStore,
  WebhookDeduplicator,
  webhooks,
} from '../../src/index.js';
import { recordingLogger } from './support.js';

const { DEFAULT_DEDUPE_TTL_MS } = webhooks;

const approved: DedupeEvent = { top_ticket: 'T-1', top_status: 'APPROVED' };
const pending: DedupeEvent = { top_ticket: 'T-1', top_status: 'PENDING' };

function clock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('WebhookDeduplicator', () => {
  it('claim → new, then in-flight while processing, then duplicate once completed', async () => {
    const dedupe = new WebhookDeduplicator();
    expect(await dedupe.claim(approved)).toBe('new');
    expect(await dedupe.claim(approved)).toBe('in-flight');
    await dedupe.complete(approved);
    expect(await dedupe.claim(approved)).toBe('duplicate');
  });

  it('keys on ticket + status: PENDING then APPROVED of one ticket are both new', async () => {
    const dedupe = new WebhookDeduplicator();
    expect(await dedupe.claim(pending)).toBe('new');
    await dedupe.complete(pending);
    expect(await dedupe.claim(approved)).toBe('new');
    expect(await dedupe.claim({ top_ticket: 'T-2', top_status: 'APPROVED' })).toBe('new');
  });

  it('ticket and status cannot be combined to forge another key', async () => {
    const dedupe = new WebhookDeduplicator();
    expect(await dedupe.claim({ top_ticket: 'a:b', top_status: 'c' })).toBe('new');
    expect(await dedupe.claim({ top_ticket: 'a', top_status: 'b:c' })).toBe('new');
  });

  it('release after a failed handler lets the retry claim it again', async () => {
    const dedupe = new WebhookDeduplicator();
    expect(await dedupe.claim(approved)).toBe('new');
    await dedupe.release(approved);
    expect(await dedupe.claim(approved)).toBe('new');
  });

  it('an expired lease is claimable; the stale holder cannot release the new claim', async () => {
    const time = clock();
    const store = new MemoryDedupeStore({ now: time.now });
    const first = new WebhookDeduplicator({ store, inFlightTtlMs: 1000 });
    const second = new WebhookDeduplicator({ store, inFlightTtlMs: 1000 });
    expect(await first.claim(approved)).toBe('new');
    time.advance(1001);
    expect(await second.claim(approved)).toBe('new');
    await first.release(approved);
    expect(await second.claim(approved)).toBe('in-flight');
  });

  it('a completed event is duplicate for ttlMs (default 7 days), then new again', async () => {
    expect(DEFAULT_DEDUPE_TTL_MS).toBe(7 * 24 * 3600 * 1000);
    const time = clock();
    const dedupe = new WebhookDeduplicator({ store: new MemoryDedupeStore({ now: time.now }) });
    await dedupe.claim(approved);
    await dedupe.complete(approved);
    time.advance(DEFAULT_DEDUPE_TTL_MS - 1);
    expect(await dedupe.claim(approved)).toBe('duplicate');
    time.advance(2);
    expect(await dedupe.claim(approved)).toBe('new');
  });

  it('50 concurrent claims of one event: exactly one is new', async () => {
    const dedupe = new WebhookDeduplicator();
    const results = await Promise.all(Array.from({ length: 50 }, () => dedupe.claim(approved)));
    expect(results.filter((r) => r === 'new')).toHaveLength(1);
    expect(results.filter((r) => r === 'in-flight')).toHaveLength(49);
  });

  it('rejects nonsensical options', () => {
    expect(() => new WebhookDeduplicator({ ttlMs: 0 })).toThrow(ConfigurationError);
    expect(() => new MemoryDedupeStore({ maxKeys: -1 })).toThrow(ConfigurationError);
  });
});

describe('MemoryDedupeStore', () => {
  it('is bounded: the least recently used key is evicted first (default 100k keys)', async () => {
    expect(new MemoryDedupeStore().maxKeys).toBe(100_000);
    const logger = recordingLogger();
    const store = new MemoryDedupeStore({ maxKeys: 3, logger });
    for (const key of ['a', 'b', 'c']) await store.set(key, 'done', 60_000);
    expect(await store.get('a')).toBe('done'); // touch a: b is now the oldest
    await store.set('d', 'done', 60_000);
    expect(store.size).toBe(3);
    expect(await store.get('b')).toBeNull();
    expect(await store.get('a')).toBe('done');
    expect(await store.get('d')).toBe('done');
    // b had not expired: its eviction is counted and logged, never silent.
    expect(store.evictedUnexpired).toBe(1);
    expect(logger.lines).toEqual([
      {
        level: 'warn',
        message: expect.stringMatching(
          /full \(maxKeys 3\): 1 unexpired key\(s\) evicted.*Raise maxKeys or use RedisDedupeStore/,
        ),
      },
    ]);
  });

  it('evicting an expired key is silent; unexpired evictions warn at most once a minute, with a count', async () => {
    let now = 0;
    const logger = recordingLogger();
    const store = new MemoryDedupeStore({ maxKeys: 2, now: () => now, logger });
    await store.set('short', 'x', 10);
    await store.set('long', 'x', 60_000);
    now = 20;
    await store.set('new-1', 'x', 60_000); // evicts 'short', expired
    expect(logger.lines).toEqual([]);
    for (let i = 2; i <= 5; i++) await store.set(`new-${i}`, 'x', 600_000); // 4 unexpired evictions
    expect(store.evictedUnexpired).toBe(4);
    expect(logger.lines).toHaveLength(1);
    now += 60_000;
    await store.set('new-6', 'x', 600_000);
    expect(logger.lines).toHaveLength(2);
    expect(logger.lines[1]!.message).toMatch(/: 4 unexpired key\(s\) evicted/); // 3 held back + this one
  });

  it("the deduplicator's default store warns through the deduplicator's logger", async () => {
    const logger = recordingLogger();
    const dedupe = new WebhookDeduplicator({ logger });
    expect(dedupe.store).toBeInstanceOf(MemoryDedupeStore);
    const store = dedupe.store as MemoryDedupeStore;
    for (let i = 0; i <= store.maxKeys; i++) await store.set(`k${i}`, 'done', 60_000);
    expect(store.evictedUnexpired).toBe(1);
    expect(logger.lines.map((l) => l.level)).toEqual(['warn']);
  });

  it('replaceIfEquals sets only while the expected value is held, with a fresh ttl', async () => {
    const time = clock();
    const store = new MemoryDedupeStore({ now: time.now });
    expect(await store.replaceIfEquals('k', 'a', 'b', 100)).toBe(false);
    await store.set('k', 'a', 100);
    expect(await store.replaceIfEquals('k', 'x', 'b', 100)).toBe(false);
    time.advance(90);
    expect(await store.replaceIfEquals('k', 'a', 'a', 100)).toBe(true);
    time.advance(90);
    expect(await store.get('k')).toBe('a');
    expect(await store.replaceIfEquals('k', 'a', 'done', 1_000)).toBe(true);
    expect(await store.get('k')).toBe('done');
    time.advance(1_000);
    expect(await store.replaceIfEquals('k', 'done', 'z', 100)).toBe(false);
  });

  it('holds its bound and its order through a long mixed run (checked against a reference model)', async () => {
    const store = new MemoryDedupeStore({ maxKeys: 50, logger: recordingLogger() });
    const model: string[] = []; // least recently used first
    const use = (key: string) => {
      const at = model.indexOf(key);
      if (at >= 0) model.splice(at, 1);
      model.push(key);
      if (model.length > 50) model.shift();
    };
    for (let i = 0; i < 5_000; i++) {
      const key = `k${(i * 7919) % 130}`;
      if (i % 3 === 0) {
        const hit = (await store.get(key)) !== null;
        expect(hit).toBe(model.includes(key));
        if (hit) use(key);
      } else {
        await store.set(key, 'v', 60_000);
        use(key);
      }
      expect(store.size).toBe(model.length);
    }
  });

  it('setIfAbsent is atomic and honours expiry; deleteIfEquals checks the value', async () => {
    const time = clock();
    const store = new MemoryDedupeStore({ now: time.now });
    expect(await store.setIfAbsent('k', 'v1', 100)).toBe(true);
    expect(await store.setIfAbsent('k', 'v2', 100)).toBe(false);
    await store.deleteIfEquals('k', 'v2');
    expect(await store.get('k')).toBe('v1');
    time.advance(100);
    expect(await store.get('k')).toBeNull();
    expect(await store.setIfAbsent('k', 'v3', 100)).toBe(true);
    await store.deleteIfEquals('k', 'v3');
    expect(await store.get('k')).toBeNull();
  });
});

describe('isNewerStatus', () => {
  it('final statuses beat PENDING and CREATED, PENDING beats CREATED', () => {
    for (const final of ['APPROVED', 'REJECTED', 'DECLINED', 'EXPIRED']) {
      expect(isNewerStatus('PENDING', final)).toBe(true);
      expect(isNewerStatus('CREATED', final)).toBe(true);
      expect(isNewerStatus(final, 'PENDING')).toBe(false);
      expect(isNewerStatus(final, 'CREATED')).toBe(false);
    }
    expect(isNewerStatus('CREATED', 'PENDING')).toBe(true);
    expect(isNewerStatus('PENDING', 'CREATED')).toBe(false);
  });

  it('a final status is never replaced, not even by another final one or itself', () => {
    expect(isNewerStatus('APPROVED', 'REJECTED')).toBe(false);
    expect(isNewerStatus('EXPIRED', 'APPROVED')).toBe(false);
    expect(isNewerStatus('APPROVED', 'APPROVED')).toBe(false);
  });

  it('anything beats no status; unknown statuses rank between in-progress and final', () => {
    expect(isNewerStatus(undefined, 'PENDING')).toBe(true);
    expect(isNewerStatus(null, 'CREATED')).toBe(true);
    expect(isNewerStatus('PENDING', 'ON_HOLD')).toBe(true);
    expect(isNewerStatus('ON_HOLD', 'PENDING')).toBe(false);
    expect(isNewerStatus('ON_HOLD', 'APPROVED')).toBe(true);
    expect(isNewerStatus('APPROVED', 'ON_HOLD')).toBe(false);
    expect(isNewerStatus('constructor', 'PENDING')).toBe(false);
  });
});
