/**
 * Every options object of the webhook side is checked by the rule tables of core/options.ts, as
 * the client's are: an unknown key names the closest known one, and every problem is named at
 * once, in one ConfigurationError at construction.
 */
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  createWebhookHandler,
  MemoryDedupeStore,
  verifyWebhook,
  verifyWebhookAsync,
  WebhookDeduplicator,
} from '../../src/index.js';

const thrown = (run: () => unknown): Error => {
  try {
    run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('did not throw');
};

describe('webhook options', () => {
  it('WebhookDeduplicator: a misspelt key and a bad value, both named in one error', () => {
    const error = thrown(() => new WebhookDeduplicator({ ttl: 1000, storeTimeoutMs: -5 } as never));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/^new WebhookDeduplicator\(\): ttl: unknown option; did you mean ttlMs\?/);
    expect(error.message).toMatch(/storeTimeoutMs must be a number of milliseconds above 0 .*; got -5\./);
  });

  it('MemoryDedupeStore: maxKeys and now by their rules', () => {
    const error = thrown(() => new MemoryDedupeStore({ maxKeys: 0, now: 5 } as never));
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toBe(
      'new MemoryDedupeStore(): maxKeys must be a positive number of keys; got 0; now must be a function; got 5.',
    );
  });

  it('verifyWebhook and verifyWebhookAsync: unknown keys and the scheme, never echoing a value', async () => {
    const secretLooking = 'tok_live_should_not_be_echoed';
    const error = thrown(() =>
      verifyWebhook('{}', {}, { token: 't', schema: 'json', scheme: secretLooking } as never),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/schema: unknown option; did you mean scheme\?/);
    expect(error.message).toMatch(/scheme must be 'json', 'concat' or a function; got string/);
    expect(error.message).not.toContain(secretLooking);
    await expect(verifyWebhookAsync('{}', {}, { token: 't', maxBodyBytes: -1 })).rejects.toThrow(
      /^verifyWebhookAsync: maxBodyBytes must be a positive number of bytes; got -1\.$/,
    );
  });

  it('createWebhookHandler: maxBodyBytes, scheme and confirmTimeoutMs by the same rules', () => {
    const error = thrown(() =>
      createWebhookHandler({
        token: 't',
        onEvent: () => {},
        maxBodyBytes: 0,
        scheme: 'md5' as never,
        confirmTimeoutMs: Number.NaN,
      }),
    );
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error.message).toMatch(/maxBodyBytes must be a positive number of bytes; got 0/);
    expect(error.message).toMatch(/scheme must be 'json', 'concat' or a function/);
    expect(error.message).toMatch(/confirmTimeoutMs must be a number of milliseconds/);
  });

  it('createWebhookHandler: an unknown key lists the options, and wrong values come in that order', () => {
    const error = thrown(() =>
      createWebhookHandler({ token: 't', onEvent: () => {}, onError: 1, scheme: 2, xyzzy: true } as never),
    );
    expect(error.message).toBe(
      'createWebhookHandler: xyzzy: unknown option; the options are token, onEvent, dedupe, scheme, ' +
        'maxBodyBytes, confirmWith, confirmTimeoutMs, logger, onError, tracer, client; ' +
        "scheme must be 'json', 'concat' or a function; got 2; onError must be a function; got 1.",
    );
  });
});
