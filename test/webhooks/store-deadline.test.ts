/**
 * The webhook handler never hangs on its store: every dedupe-store call has a deadline
 * (storeTimeoutMs, default 3 s), and a store that is hung or failing answers 503 — never 200,
 * never a hang — over real HTTP. test/redis/unavailable.test.ts does the same with ioredis and
 * node-redis against a Redis that stops answering.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  DedupeStoreTimeoutError,
  MemoryDedupeStore,
  WebhookDeduplicator,
  webhooks,
} from '../../src/index.js';
import { delivery, recordingLogger, sampleEvent, serveHandler, sleep, TOKEN } from './support.js';

const { DEFAULT_STORE_TIMEOUT_MS } = webhooks;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

const never = <T>() => new Promise<T>(() => {});
const hungStore: DedupeStore = {
  setIfAbsent: never,
  get: never,
  set: never,
  deleteIfEquals: never,
};

async function receiver(store: DedupeStore, storeTimeoutMs?: number) {
  const errors: unknown[] = [];
  let runs = 0;
  const logger = recordingLogger();
  const handler = createWebhookHandler({
    token: TOKEN,
    logger,
    dedupe: new WebhookDeduplicator({ store, logger, ...(storeTimeoutMs ? { storeTimeoutMs } : {}) }),
    onEvent: () => {
      runs++;
    },
    onError: (error) => void errors.push(error),
  });
  const served = await serveHandler(handler);
  closers.push(served.close);
  return { ...served, errors, runs: () => runs };
}

describe('dedupe store deadlines', () => {
  it('default deadline is a few seconds', () => {
    expect(DEFAULT_STORE_TIMEOUT_MS).toBe(3_000);
    expect(new WebhookDeduplicator().storeTimeoutMs).toBe(3_000);
    expect(() => new WebhookDeduplicator({ storeTimeoutMs: 0 })).toThrow(/storeTimeoutMs/);
    expect(() => new WebhookDeduplicator({ storeTimeoutMs: 2 ** 31 })).toThrow(/at most/);
  });

  it('a store that never answers: 503 within storeTimeoutMs, onEvent not called', async () => {
    const r = await receiver(hungStore, 150);
    const started = Date.now();
    const answer = await r.post(delivery());
    expect(answer).toEqual({
      status: 503,
      body: { error: 'dedupe_unavailable', message: 'Dedupe store unavailable; retry later.' },
    });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(r.runs()).toBe(0);
    expect(r.errors[0]).toBeInstanceOf(DedupeStoreTimeoutError);
    expect((r.errors[0] as DedupeStoreTimeoutError).operation).toBe('setIfAbsent');
  });

  it('a store that throws synchronously or rejects: 503', async () => {
    const broken: DedupeStore = {
      setIfAbsent: () => {
        throw new Error('socket closed');
      },
      get: () => Promise.reject(new Error('down')),
      set: () => Promise.reject(new Error('down')),
      deleteIfEquals: () => Promise.reject(new Error('down')),
    };
    const r = await receiver(broken);
    expect((await r.post(delivery())).status).toBe(503);
    expect(r.runs()).toBe(0);
  });

  it('a claim that lands after its deadline is undone, so the retry is processed', async () => {
    const memory = new MemoryDedupeStore();
    let slow = true;
    const store: DedupeStore = {
      setIfAbsent: async (k, v, t) => {
        if (slow) await sleep(200); // the write lands, but after the 50 ms deadline
        return memory.setIfAbsent(k, v, t);
      },
      get: (k) => memory.get(k),
      set: (k, v, t) => memory.set(k, v, t),
      deleteIfEquals: (k, v) => memory.deleteIfEquals(k, v),
    };
    const r = await receiver(store, 50);
    const genuine = delivery(sampleEvent({ top_ticket: 'LATE-1' }));
    expect((await r.post(genuine)).status).toBe(503);
    await sleep(250);
    expect(await memory.get('LATE-1:APPROVED')).toBeNull(); // not left holding a lease nobody owns
    slow = false;
    expect((await r.post(genuine)).body).toEqual({ received: true, result: 'processed' });
    expect(r.runs()).toBe(1);
  });

  it('a store written for 0.1 (no replaceIfEquals) still works: renew and complete fall back to get + set', async () => {
    const memory = new MemoryDedupeStore();
    const legacy: DedupeStore = {
      setIfAbsent: (k, v, t) => memory.setIfAbsent(k, v, t),
      get: (k) => memory.get(k),
      set: (k, v, t) => memory.set(k, v, t),
      deleteIfEquals: (k, v) => memory.deleteIfEquals(k, v),
    };
    const r = await receiver(legacy);
    const genuine = delivery();
    expect((await r.post(genuine)).body).toEqual({ received: true, result: 'processed' });
    expect((await r.post(genuine)).body).toEqual({ received: true, result: 'duplicate' });
  });
});
