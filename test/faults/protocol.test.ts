/**
 * Answers no payment service sends but a misbehaving proxy or server can, on both senders (this
 * folder runs in the `node` and the `fetch` vitest projects): each is a typed failure at once,
 * not a wait until the deadline.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthenticationError, ConnectionError, PaymentClient } from '../../src/index.js';
import { CREDENTIALS } from '../helpers/msw.js';

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

/** A raw TCP server that answers the first bytes of every connection with `answer`. */
async function answering(answer: string) {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', (data) => {
      requests.push(data.toString('latin1').split('\r\n')[0] ?? '');
      socket.write(answer);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  const { port } = server.address() as net.AddressInfo;
  return { requests, baseUrl: `http://127.0.0.1:${port}` };
}

describe('a protocol switch nobody asked for', () => {
  it('HTTP 101 with Upgrade: a ConnectionError at once, outcome unknown, not a wait for the deadline', async () => {
    const { requests, baseUrl } = await answering(
      'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n',
    );
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0, timeoutMs: 10_000 });
    const started = performance.now();
    const error = await client.merchant.getBalance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).outcome).toBe('unknown');
    expect((error as ConnectionError).message).toMatch(/^GET \/api\/v1\/merchant\/balance got no answer/);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(requests).toEqual(['GET /api/v1/merchant/balance HTTP/1.1']);
  });
});

describe('an HTTP 101 without Upgrade', () => {
  it('is no answer (a ConnectionError, outcome unknown), not an HTTP status whose body is empty', async () => {
    const { requests, baseUrl } = await answering('HTTP/1.1 101 Switching Protocols\r\n\r\n');
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0, timeoutMs: 1_500 });
    const error = await client.merchant.getBalance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).outcome).toBe('unknown');
    expect(requests).toEqual(['GET /api/v1/merchant/balance HTTP/1.1']);
  });
});

describe('an empty body labelled compressed', () => {
  it.each([
    ['with Content-Length: 0', 'content-length: 0\r\n\r\n'],
    ['chunked', 'transfer-encoding: chunked\r\n\r\n0\r\n\r\n'],
  ])('%s is an empty body: a 401 is an AuthenticationError, not an unreadable answer', async (_, rest) => {
    const { baseUrl } = await answering(
      `HTTP/1.1 401 Unauthorized\r\ncontent-type: application/json\r\ncontent-encoding: gzip\r\n${rest}`,
    );
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    const error = await client.merchant.getBalance().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
  });
});
