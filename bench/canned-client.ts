/**
 * A Node-entry PaymentClient whose `node:http` sender is swapped for a canned one (the envelope
 * server's answer bytes, no socket): what is left of a call's CPU is the SDK's own, above the
 * wire. Used by bench/canned-sender.ts (per kind of call, A/B of builds) and by the tracing
 * section (what a no-op tracer adds, resolved far below the wire's noise).
 */
import type * as Sdk from '../src/index.js';
import { CREDENTIALS, payinEnvelope, transactionEnvelope } from './fixtures.js';

const notFound = JSON.stringify({
  code: '00',
  status: 'ERROR',
  error: 'NOT_FOUND',
  message: 'No transaction',
});

const headersOf = (text: string) =>
  new Headers([
    ['content-type', 'application/json'],
    ['content-length', String(text.length)],
  ]);

const answers = {
  POST: { status: 200, headers: headersOf(payinEnvelope), text: payinEnvelope },
  GET: { status: 200, headers: headersOf(transactionEnvelope), text: transactionEnvelope },
  missing: { status: 404, headers: headersOf(notFound), text: notFound },
};

/** What the Node sender resolves with, without a socket (one Headers per answer, shared: read only). */
async function canned(request: { url: string; method: 'GET' | 'POST' }) {
  return request.url.endsWith('/missing') ? answers.missing : answers[request.method];
}

/** A client of `sdk` (a Node entry) answered by the canned sender; `options` as PaymentClient's. */
export function cannedClient(sdk: typeof Sdk, options: object = {}): Sdk.PaymentClient {
  const Base = sdk.PaymentClient as unknown as new (o: object) => Sdk.PaymentClient;
  const key = Object.getOwnPropertySymbols(Base).find((s) => String(s).includes('platformSender'));
  if (!key) throw new Error('not the Node entry: its PaymentClient names no platform sender');
  class Canned extends (Base as new (o: object) => object) {}
  Object.defineProperty(Canned, key, { value: canned });
  return new Canned({ ...CREDENTIALS, baseUrl: 'http://127.0.0.1:1', ...options }) as Sdk.PaymentClient;
}

/** Client CPU per call (µs, user + system) of `count` calls of `task`, 64 in flight. */
export async function cpuPerCall(task: () => Promise<unknown>, count: number): Promise<number> {
  const c0 = process.cpuUsage();
  let next = 0;
  await Promise.all(
    Array.from({ length: 64 }, async () => {
      while (next++ < count) await task();
    }),
  );
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / count;
}
