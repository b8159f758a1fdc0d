/**
 * The Fetch form of createWebhookHandler where there are no `node:` built-ins at all (Vercel's
 * Edge Runtime): `payinout` is bundled as a neutral bundler sees it (esbuild, platform
 * 'neutral' — a static `node:` import would fail the build) and run in a fresh V8 context that
 * has only Web-standard globals: no process, no Buffer, no require. The digest and the
 * constant-time compare then run on Web Crypto. The same path is also forced in-process.
 */
import vm from 'node:vm';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as sdk from '../../src/index.js';
import { simulateNoNodeCrypto } from '../../src/webhooks/crypto.js';
import { delivery, sampleEvent, TOKEN } from './support.js';

type Sdk = typeof sdk;

/** What Vercel's Edge Runtime offers: Web APIs only. Host classes, so typed arrays share one realm. */
const WEB_GLOBALS = {
  AbortController,
  AbortSignal,
  ArrayBuffer,
  Blob,
  DOMException,
  Event,
  EventTarget,
  Headers,
  ReadableStream,
  Request,
  Response,
  TextDecoder,
  TextEncoder,
  URL,
  URLSearchParams,
  Uint8Array,
  atob,
  btoa,
  clearInterval,
  clearTimeout,
  console,
  crypto: globalThis.crypto,
  fetch,
  queueMicrotask,
  setInterval,
  setTimeout,
  structuredClone,
};

async function loadInEdgeContext(): Promise<{ sdk: Sdk; context: vm.Context }> {
  const result = await build({
    entryPoints: ['src/index.ts'],
    bundle: true,
    platform: 'neutral',
    format: 'iife',
    globalName: 'payinout',
    mainFields: ['module', 'main'],
    write: false,
    logLevel: 'silent',
  });
  const context = vm.createContext({ ...WEB_GLOBALS });
  vm.runInContext(`${result.outputFiles[0]!.text}\nglobalThis.payinout = payinout;`, context);
  return { sdk: context.payinout as Sdk, context };
}

describe('payinout in an Edge-like context (no node: built-ins)', () => {
  let edge: { sdk: Sdk; context: vm.Context };
  beforeAll(async () => {
    edge = await loadInEdgeContext();
  }, 30_000);

  it('the context really has no Node: no process, Buffer or require', () => {
    expect(vm.runInContext('[typeof process, typeof Buffer, typeof require]', edge.context)).toEqual([
      'undefined',
      'undefined',
      'undefined',
    ]);
  });

  it('the Fetch handler verifies with Web Crypto: 200 processed, 200 duplicate, 401 forged, 400 malformed', async () => {
    const seen: string[] = [];
    const handler = edge.sdk.createWebhookHandler({
      token: TOKEN,
      onEvent: (e) => void seen.push(e.top_ticket),
    });
    const { body, headers } = delivery(sampleEvent({ top_ticket: 'EDGE-1' }));
    const post = (b: string, h: Record<string, string>) =>
      handler(new Request('https://shop.example/api/webhooks', { method: 'POST', body: b, headers: h }));
    const first = await post(body, headers);
    expect([first.status, await first.json()]).toEqual([200, { received: true, result: 'processed' }]);
    expect(await (await post(body, headers)).json()).toEqual({ received: true, result: 'duplicate' });
    const forged = { ...headers, 'x-trx-signature': 'f'.repeat(64) };
    expect(await (await post(body, forged)).json()).toMatchObject({ error: 'signature_mismatch' });
    expect((await post('{"top_status":', headers)).status).toBe(400);
    expect(seen).toEqual(['EDGE-1']);
  });

  it('verifyWebhookAsync and computeWebhookSignatureAsync work; the sync verifyWebhook says to use them', async () => {
    const { body, headers } = delivery();
    const event = await edge.sdk.verifyWebhookAsync(body, headers, { token: TOKEN });
    expect(event.top_ticket).toBe('TCK-0001');
    expect(
      await edge.sdk.computeWebhookSignatureAsync({
        token: TOKEN,
        ticket: 'TCK-0001',
        reference: 'order-1001',
      }),
    ).toBe(headers['x-trx-signature']);
    expect(() => edge.sdk.verifyWebhook(body, headers, { token: TOKEN })).toThrow(/verifyWebhookAsync/);
  });
});

describe('the Web Crypto path forced in-process (node:crypto made unavailable)', () => {
  afterEach(() => simulateNoNodeCrypto(false));

  it('gives the same digests and verdicts as node:crypto, case-insensitively, for both schemes', async () => {
    const input = { token: TOKEN, ticket: 'TCK-ñ/1', reference: 'ref "quoted" 💸' };
    const expected = ['json', 'concat'].map((s) => sdk.computeWebhookSignature(input, s as 'json'));
    simulateNoNodeCrypto(true);
    const viaWeb = await Promise.all(
      ['json', 'concat'].map((s) => sdk.computeWebhookSignatureAsync(input, s as 'json')),
    );
    expect(viaWeb).toEqual(expected);
    const { body, headers } = delivery();
    const upper = { ...headers, 'x-trx-signature': headers['x-trx-signature'].toUpperCase() };
    expect((await sdk.verifyWebhookAsync(body, upper, { token: TOKEN })).top_status).toBe('APPROVED');
    await expect(sdk.verifyWebhookAsync(body, headers, { token: 'other' })).rejects.toMatchObject({
      reason: 'signature_mismatch',
    });
    expect(() => sdk.verifyWebhook(body, headers, { token: TOKEN })).toThrow(sdk.ConfigurationError);
  });

  it('the handler answers the same codes without node:crypto', async () => {
    simulateNoNodeCrypto(true);
    const handler = sdk.createWebhookHandler({ token: TOKEN, onEvent: () => {} });
    const { body, headers } = delivery();
    expect((await handler.handle(body, headers)).status).toBe(200);
    expect((await handler.handle(body, { ...headers, 'x-trx-signature': 'nope' })).status).toBe(401);
  });
});
