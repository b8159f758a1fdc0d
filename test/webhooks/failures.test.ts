/**
 * Webhook handler failures are never silent: without onError, every failed delivery writes one
 * warn line (the handler's logger, default console.warn) with the cause and the fix, redacted;
 * with onError, that callback gets the error whole instead. Deliveries go over HTTP to a real
 * Express app, set up the way the issue found it: a global app.use(express.json()).
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, it, vi } from 'vitest';
import {
  createWebhookHandler,
  type DedupeStore,
  WebhookDeduplicator,
  type WebhookHandlerOptions,
  WebhookVerificationError,
} from '../../src/index.js';
import { delivery, leaksSecrets, PII, recordingLogger, sampleEvent, serveHandler, TOKEN } from './support.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

async function receiver(options: Partial<WebhookHandlerOptions>) {
  const handler = createWebhookHandler({
    token: TOKEN,
    onEvent: () => {},
    ...options,
  } as WebhookHandlerOptions);
  const served = await serveHandler(handler);
  closers.push(served.close);
  return served;
}

const downStore: DedupeStore = {
  setIfAbsent: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6390')),
  get: () => Promise.reject(new Error('down')),
  set: () => Promise.reject(new Error('down')),
  deleteIfEquals: () => Promise.reject(new Error('down')),
};

describe('without onError: one warn line per failed delivery', () => {
  it('a wrong token (401): the line says so and what to check', async ({ expect }) => {
    const logger = recordingLogger();
    const served = await receiver({ logger });
    expect((await served.post(delivery(sampleEvent(), 'stale-token'))).status).toBe(401);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]!.level).toBe('warn');
    expect(logger.lines[0]!.message).toMatch(
      /^payinout webhook answered 401 \(invalid_signature\): The x-trx-signature header does not match .*merchant token of this environment/,
    );
  });

  it('onEvent threw Error("db down") (500): the line names it, scrubbed, and says the retry will run it again', async ({
    expect,
  }) => {
    const logger = recordingLogger();
    const served = await receiver({
      logger,
      onEvent: () => {
        throw new Error(`db down for ${PII.full_name} <${PII.email}>`);
      },
    });
    expect((await served.post(delivery())).status).toBe(500);
    expect(logger.lines).toHaveLength(1);
    const [line] = logger.lines;
    expect(line!.message).toMatch(
      /answered 500 \(handler_failed\) for ticket TCK-0001: onEvent threw Error: db down for/,
    );
    expect(line!.message).toMatch(/retry runs onEvent again/);
    expect(leaksSecrets(line!.message)).toBe(false);
  });

  it('the dedupe store is down (503): one line naming the store', async ({ expect }) => {
    const logger = recordingLogger();
    const served = await receiver({ logger, dedupe: new WebhookDeduplicator({ store: downStore }) });
    expect((await served.post(delivery())).status).toBe(503);
    expect(logger.lines.map((l) => l.message)).toEqual([
      expect.stringMatching(
        /answered 503 \(store_unavailable\).*dedupe store failed \(Error: connect ECONNREFUSED.*\(e\.g\. Redis\)/,
      ),
    ]);
  });

  it('not confirmed (409): one line, the lookup status named', async ({ expect }) => {
    const logger = recordingLogger();
    const lookup = {
      transactions: {
        get: async () =>
          ({
            ticket: 'TCK-0001',
            reference: 'order-1001',
            status: 'REJECTED',
            amount: 150000,
            currency: 'COP',
          }) as never,
      },
    };
    const served = await receiver({ logger, confirmWith: lookup });
    expect((await served.post(delivery())).status).toBe(409);
    expect(logger.lines).toHaveLength(1);
    expect(logger.lines[0]!.message).toMatch(
      /answered 409 \(not_confirmed\).*lookup status REJECTED, delivered APPROVED/,
    );
  });

  it('a GET (405) says the service delivers with POST', async ({ expect }) => {
    const logger = recordingLogger();
    const served = await receiver({ logger });
    expect((await fetch(served.url)).status).toBe(405);
    expect(logger.lines.map((l) => l.message)).toEqual([
      expect.stringMatching(
        /^payinout webhook answered 405 \(method_not_allowed\): A GET request .* with POST only/,
      ),
    ]);
  });

  it('successes, duplicates and in-flight retries write nothing', async ({ expect }) => {
    const logger = recordingLogger();
    const served = await receiver({ logger });
    await served.post(delivery());
    await served.post(delivery());
    expect(logger.lines).toEqual([]);
  });

  it('a logger with warn only is enough', async ({ expect }) => {
    const lines: string[] = [];
    const served = await receiver({ logger: { warn: (line: string) => void lines.push(line) } });
    await served.post(delivery(sampleEvent(), 'stale-token'));
    expect(lines).toEqual([expect.stringMatching(/answered 401 \(invalid_signature\)/)]);
  });

  it('the default logger is console.warn', async ({ expect }) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const served = await receiver({});
    await served.post(delivery(sampleEvent(), 'stale-token'));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]).toEqual([expect.stringMatching(/answered 401 \(invalid_signature\)/)]);
  });
});

describe('a global app.use(express.json()) before the route (400 parsed_body)', () => {
  it('the line names that usual cause and the fix', async ({ expect }) => {
    const logger = recordingLogger();
    const handler = createWebhookHandler({ token: TOKEN, onEvent: () => {}, logger });
    const app = express();
    app.use(express.json());
    app.post('/webhooks', handler.node);
    const server: Server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    closers.push(() => new Promise((resolve) => server.close(() => resolve())));
    const d = delivery();
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    const response = await fetch(url, { method: 'POST', body: d.body, headers: d.headers });
    expect(response.status).toBe(400);
    expect(logger.lines).toHaveLength(1);
    const { message } = logger.lines[0]!;
    expect(message).toMatch(/answered 400 \(parsed_body\)/);
    expect(message).toContain('app.use(express.json())');
    expect(message).toMatch(/Register the webhook route before app\.use\(express\.json\(\)\)/);
  });
});

describe('with onError: the error whole, instead of the line', () => {
  it("onEvent's own error object, with its class, cause and properties, when it holds no secret", async ({
    expect,
  }) => {
    const logger = recordingLogger();
    const seen: { error: unknown; context: unknown }[] = [];
    const cause = new Error('socket hang up');
    const thrown = Object.assign(new RangeError('db down', { cause }), { code: 'E_DB' });
    const served = await receiver({
      logger,
      onEvent: () => {
        throw thrown;
      },
      onError: (error, context) => void seen.push({ error, context }),
    });
    await served.post(delivery());
    expect(logger.lines).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.error).toBe(thrown);
    expect(seen[0]!.context).toMatchObject({
      status: 500,
      verdict: 'handler_failed',
      event: { top_ticket: 'TCK-0001' },
    });
  });

  it('a scrubbed copy (same class, cause and code) when its message or stack holds the token or customer data', async ({
    expect,
  }) => {
    const seen: unknown[] = [];
    class LedgerError extends Error {
      override name = 'LedgerError';
      code = 'E_LEDGER';
    }
    const cause = new Error('timeout');
    const served = await receiver({
      onEvent: (event) => {
        throw new LedgerError(`cannot credit ${event.top_user?.full_name} (${PII.legal_doc}) with ${TOKEN}`, {
          cause,
        });
      },
      onError: (error) => void seen.push(error),
    });
    await served.post(delivery());
    const error = seen[0] as LedgerError;
    expect(error).toBeInstanceOf(LedgerError);
    expect(error.code).toBe('E_LEDGER');
    expect(error.cause).toBe(cause);
    expect(error.message).toMatch(/^cannot credit \[REDACTED\] \(\[REDACTED\]\) with \[REDACTED\]$/);
    expect(leaksSecrets(`${error.message}${error.stack}`)).toBe(false);
  });

  it('verification failures reach onError as WebhookVerificationError with the verdict', async ({
    expect,
  }) => {
    const seen: { error: unknown; verdict: string }[] = [];
    const served = await receiver({ onError: (error, { verdict }) => void seen.push({ error, verdict }) });
    await served.post(delivery(sampleEvent(), 'stale'));
    expect(seen[0]!.error).toBeInstanceOf(WebhookVerificationError);
    expect(seen[0]!.verdict).toBe('invalid_signature');
  });

  it('an onError that throws changes nothing: the answer stays, no line either', async ({ expect }) => {
    const logger = recordingLogger();
    const served = await receiver({
      logger,
      onError: () => {
        throw new Error('logging backend down');
      },
    });
    expect((await served.post(delivery(sampleEvent(), 'stale'))).status).toBe(401);
    expect(logger.lines).toEqual([]);
  });

  it('a wrong or misspelt onError, logger or tracer fails at creation, not at the first failure', ({
    expect,
  }) => {
    const make = (extra: object) => () => createWebhookHandler({ token: TOKEN, onEvent: () => {}, ...extra });
    expect(make({ onError: 'console' })).toThrow(/onError must be a function/);
    expect(make({ logger: {} })).toThrow(/logger must be an object with warn method/);
    expect(make({ tracer: {} })).toThrow(/tracer must be an object with startActiveSpan method/);
    expect(make({ onerror: () => {}, maxBodyByte: 10 })).toThrow(
      'createWebhookHandler: onerror: unknown option; did you mean onError?; maxBodyByte: unknown option; did you mean maxBodyBytes?.',
    );
  });
});
