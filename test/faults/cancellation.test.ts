/** AbortSignal at every stage of a call: rejected promptly with the caller's own reason. */
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { PaymentClient } from '../../src/index.js';
import { startLocalServer } from '../helpers/local-server.js';
import { nextReference, payoutParams, settle } from './methods.js';
import { CREDENTIALS, startFaultServer } from './server.js';

const reason = () => new Error('caller gave up');

/**
 * Aborts `ms` after the server has seen `requests` requests (so the stage under test is reached
 * however slow the first connection is); returns the signal, the reason, and when it fired.
 */
function abortAfter(ms: number, server: { log: unknown[] }, requests = 1) {
  const controller = new AbortController();
  const why = reason();
  const state = { abortedAt: 0 };
  const watcher = setInterval(() => {
    if (server.log.length < requests) return;
    clearInterval(watcher);
    setTimeout(() => {
      state.abortedAt = performance.now();
      controller.abort(why);
    }, ms);
  }, 2);
  return { signal: controller.signal, why, state, stop: () => clearInterval(watcher) };
}

describe.concurrent('cancellation', () => {
  it('an already aborted signal sends nothing', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    const why = reason();
    const { error } = await settle(server.client().merchant.getBalance({ signal: AbortSignal.abort(why) }));
    expect(error).toBe(why);
    expect(server.log).toEqual([]);
  });

  it('while waiting for the headers', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({ fault: { kind: 'slow-headers', ms: 5000 } });
    const { signal, why, state, stop } = abortAfter(100, server);
    onTestFinished(stop);
    const { error } = await settle(server.client({ timeoutMs: 5000 }).merchant.getProfile({ signal }));
    expect(error).toBe(why);
    expect(performance.now() - state.abortedAt).toBeLessThan(200);
  });

  it('while reading a stalled body', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({ fault: { kind: 'slow-body', ms: 5000 } });
    const { signal, why, state, stop } = abortAfter(100, server);
    onTestFinished(stop);
    const { error } = await settle(server.client({ timeoutMs: 5000 }).payin.listPseBanks({ signal }));
    expect(error).toBe(why);
    expect(performance.now() - state.abortedAt).toBeLessThan(200);
  });

  it('during the backoff sleep before a retry', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({ fault: { kind: 'status', status: 503, headers: { 'retry-after': '30' } } });
    const { signal, why, state, stop } = abortAfter(100, server);
    onTestFinished(stop);
    const { error } = await settle(server.client({ maxRetries: 2 }).merchant.getBalance({ signal }));
    expect(error).toBe(why);
    expect(performance.now() - state.abortedAt).toBeLessThan(200);
    expect(server.order()).toEqual(['GET /api/v1/merchant/balance']);
  });

  it('during reconciliation, before the lookup', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({
      method: 'POST',
      fault: { kind: 'status', status: 503, headers: { 'retry-after': '30' } },
    });
    const { signal, why, state, stop } = abortAfter(100, server);
    onTestFinished(stop);
    const reference = nextReference('abort');
    const { error } = await settle(server.client().payout.create(payoutParams(reference), { signal }));
    expect(error).toBe(why);
    expect(performance.now() - state.abortedAt).toBeLessThan(200);
    expect(server.order()).toEqual(['POST /api/v1/payout']);
  });

  it('during the reconciliation lookup', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue(
      { method: 'POST', fault: { kind: 'drop-after-commit' } },
      { method: 'GET', fault: { kind: 'slow-headers', ms: 5000 } },
    );
    const reference = nextReference('abort');
    const controller = new AbortController();
    const why = reason();
    // Abort as soon as the lookup has reached the server.
    const watcher = setInterval(() => {
      if (server.log.length === 2) controller.abort(why);
    }, 5);
    onTestFinished(() => clearInterval(watcher));
    const client = server.client({ timeoutMs: 5000 });
    const { error } = await settle(
      client.payout.create(payoutParams(reference), { signal: controller.signal }),
    );
    expect(error).toBe(why);
    expect(server.order()).toEqual(['POST /api/v1/payout', `GET /api/v1/transaction/${reference}`]);
    expect(server.countFor(reference)).toBe(1);
  });

  it('abort() without a reason rejects with the signal’s AbortError', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({ fault: { kind: 'slow-headers', ms: 5000 } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { error } = await settle(
      server.client({ timeoutMs: 5000 }).merchant.getProfile({ signal: controller.signal }),
    );
    expect(error).toBe(controller.signal.reason);
    expect((error as DOMException).name).toBe('AbortError');
  });

  it('a per-call timeoutMs overrides the client’s', async ({ expect, onTestFinished }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue({ fault: { kind: 'slow-headers', ms: 5000 } });
    const started = performance.now();
    const { error } = await settle(
      server.client({ timeoutMs: 10_000, maxRetries: 0 }).merchant.getProfile({ timeoutMs: 100 }),
    );
    expect((error as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('one signal shared by many concurrent calls', () => {
  it('aborts them all, at any stage, without a MaxListenersExceededWarning', async ({ onTestFinished }) => {
    // Every answer is a 503 after 20 ms: calls are in flight or in their backoff when it aborts.
    const local = await startLocalServer((request, response) => {
      request
        .resume()
        .on('end', () =>
          setTimeout(() => response.writeHead(503, { 'content-type': 'application/json' }).end('{}'), 20),
        );
    });
    onTestFinished(local.close);
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    onTestFinished(() => void process.off('warning', onWarning));
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: local.baseUrl, maxRetries: 2 });
    const controller = new AbortController();
    const why = reason();
    const calls = Array.from({ length: 40 }, () =>
      settle(client.merchant.getBalance({ signal: controller.signal })),
    );
    setTimeout(() => controller.abort(why), 300);
    const results = await Promise.all(calls);
    expect(results.every(({ error }) => error === why)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50)); // warnings are emitted on the next tick
    expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('a long-lived signal holds one listener while calls run and none after', async ({ onTestFinished }) => {
    const balance = JSON.stringify({
      code: '01',
      status: 'SUCCESS',
      message: '',
      data: { currency: 'COP', balance: 5, balance_formatted: 'COP 5,00' },
    });
    const local = await startLocalServer((request, response) => {
      request
        .resume()
        .on('end', () =>
          setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(balance), 20),
        );
    });
    onTestFinished(local.close);
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: local.baseUrl });
    // An application-wide shutdown signal, passed to every call and never aborted.
    const { signal } = new AbortController();
    const calls = Array.from({ length: 50 }, () => client.merchant.getBalance({ signal }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(EventEmitter.getEventListeners(signal, 'abort').length).toBe(1);
    await Promise.all(calls);
    expect(EventEmitter.getEventListeners(signal, 'abort')).toEqual([]);
  });
});
