import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionError, PaymentClient, RequestValidationError } from '../../src/index.js';
import { startLocalServer } from '../helpers/local-server.js';
import { CREDENTIALS } from '../helpers/msw.js';
import { payinParams } from './methods.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** A server whose every answer is a 200 that never ends (1 MiB chunks while the socket lives). */
async function endless() {
  const requests: string[] = [];
  const chunk = Buffer.alloc(1024 * 1024, 'a');
  const local = await startLocalServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response.writeHead(200, { 'content-type': 'application/json' });
    const pump = () => {
      while (!response.destroyed && response.write(chunk));
      if (!response.destroyed) response.once('drain', pump);
    };
    pump();
  });
  close = local.close;
  return { requests, baseUrl: local.baseUrl };
}

describe('an answer without end', () => {
  it('stops at 32 MiB: a ConnectionError saying the body could not be read, well before the deadline', async () => {
    const { requests, baseUrl } = await endless();
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0, timeoutMs: 15_000 });
    const heapBefore = process.memoryUsage().heapUsed;
    const started = performance.now();
    const error = await client.merchant.getBalance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(
      /^GET \/api\/v1\/merchant\/balance got HTTP 200 from the service but could not read its body \(ERR_ANSWER_TOO_LARGE, attempt 1\)/,
    );
    expect(performance.now() - started).toBeLessThan(14_000);
    // The body was dropped, not kept: the heap did not grow by anything like what was streamed.
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    expect(requests).toEqual(['GET /api/v1/merchant/balance']);
  });
});

describe('a compressed answer', () => {
  it('counts the decoded bytes: a small gzip body that inflates past 32 MiB stops there, whatever its Content-Length', async () => {
    // 300 MiB of spaces: about 300 KB of gzip, sent with its (honest) compressed length.
    const bomb = zlib.gzipSync(Buffer.alloc(300 * 1024 * 1024, ' '));
    const requests: string[] = [];
    const local = await startLocalServer((request, response) => {
      requests.push(`${request.method} ${request.url}`);
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'content-length': bomb.length,
      });
      response.end(bomb);
    });
    close = local.close;
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: local.baseUrl, maxRetries: 0 });
    const error = await client.merchant.getBalance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(
      /^GET \/api\/v1\/merchant\/balance got HTTP 200 from the service but could not read its body \(ERR_ANSWER_TOO_LARGE, attempt 1\)/,
    );
    expect(requests).toEqual(['GET /api/v1/merchant/balance']);
  });
});

describe('per-call headers', () => {
  it.each([
    ['a line break in a value', { 'x-note': 'a\r\nx-injected: 1' }],
    ['a control character in a value', { 'x-note': 'a\u0001b' }],
    ['a name that is not a token', { 'x note': 'a' }],
    ['a character beyond Latin-1', { 'x-note': 'price €5' }],
  ])('%s: RequestValidationError, nothing sent', async (_, headers) => {
    const { requests, baseUrl } = await endless();
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl });
    const error = await client.payin.create(payinParams('limits-1'), { headers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).message).toMatch(/headers\[/);
    expect((error as RequestValidationError).message).not.toContain('injected');
    expect(requests).toEqual([]);
  });
});
