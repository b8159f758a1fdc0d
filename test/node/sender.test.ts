/**
 * The Node sender (what `payinout` resolves to on Node) against a real local server: it is the
 * one a client without `fetch` uses, it reuses connections, and it reads any answer fetch would
 * read (compressed, multi-byte characters split across chunks). Only the `node` vitest project
 * runs this file; its deadline and cancellation behaviour is in test/faults, which both run.
 */
import type http from 'node:http';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, PaymentClient } from '../../src/index.js';
import { payinCO, transaction } from '../helpers/fixtures.js';
import { startLocalServer } from '../helpers/local-server.js';
import { CREDENTIALS } from '../helpers/msw.js';

const envelope = (data: unknown) =>
  Buffer.from(JSON.stringify({ code: '01', status: 'SUCCESS', message: 'Operación exitosa', data }));
const lookup = envelope([
  { ...transaction, customer: { ...transaction.customer, full_name: 'Ñandú Pérez' } },
]);

interface Seen {
  headers: IncomingHttpHeaders;
  socket: number;
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await close?.();
  close = undefined;
});

/** A server that answers every request with `write(response)`, recording headers and sockets. */
async function serve(write: (response: http.ServerResponse) => void, keepAliveTimeout = 5_000) {
  const seen: Seen[] = [];
  const sockets = new Map<object, number>();
  const local = await startLocalServer((request, response) => {
    if (!sockets.has(request.socket)) sockets.set(request.socket, sockets.size);
    seen.push({ headers: request.headers, socket: sockets.get(request.socket) ?? -1 });
    request.resume().on('end', () => write(response));
  });
  local.server.keepAliveTimeout = keepAliveTimeout;
  close = local.close;
  const client = (options: { fetch?: typeof fetch; maxRetries?: number } = {}) =>
    new PaymentClient({ ...CREDENTIALS, baseUrl: local.baseUrl, ...options });
  return { seen, client };
}

const json =
  (body: Buffer, headers: http.OutgoingHttpHeaders = {}) =>
  (response: http.ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/json', ...headers });
    response.end(body);
  };

describe('on Node, a client without `fetch`', () => {
  it('sends over node:http, not fetch, and reuses one keep-alive connection', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const { seen, client } = await serve(json(lookup));
    const sdk = client();
    for (let i = 0; i < 10; i++) await sdk.transactions.get(transaction.ticket);
    expect(fetchSpy).not.toHaveBeenCalled();
    // fetch (undici) marks its requests; node:http does not.
    expect(seen.every(({ headers }) => headers['sec-fetch-mode'] === undefined)).toBe(true);
    expect(new Set(seen.map(({ socket }) => socket)).size).toBe(1);
    expect(seen[0]?.headers.authorization).toMatch(/^Basic /);
    expect(seen[0]?.headers['user-agent']).toMatch(/^payinout\//);
  });

  it("closes an idle connection 1 s before the server's Keep-Alive hint, so none is reused as it closes", async () => {
    // The server announces `Keep-Alive: timeout=2` and closes idle sockets after 2 s.
    const { seen, client } = await serve(json(lookup), 2_000);
    const sdk = client({ maxRetries: 0 });
    await sdk.transactions.get(transaction.ticket);
    await new Promise((resolve) => setTimeout(resolve, 1_400));
    // Past the client's 1 s, before the server's 2 s: a fresh connection, not a dying one.
    await sdk.transactions.get(transaction.ticket);
    expect(seen.map(({ socket }) => socket)).toEqual([0, 1]);
  });

  it('a client given `fetch` sends with that fetch', async () => {
    const { seen, client } = await serve(json(lookup));
    const own = vi.fn((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
    const found = await client({ fetch: own as typeof fetch }).transactions.get(transaction.ticket);
    expect(found.ticket).toBe(transaction.ticket);
    expect(own).toHaveBeenCalledTimes(1);
    expect(seen).toHaveLength(1);
  });
});

describe('lastResponse.headers', () => {
  // The sender fills them on first use (src/node/headers.ts): every way of reading them must see
  // what fetch's Headers of the same answer hold.
  const answer = (response: http.ServerResponse) => {
    response.setHeader('set-cookie', ['a=1', 'b=2']);
    response.setHeader('x-trace', ['one', 'two']);
    json(lookup, { 'X-Request-Id': 'req-42', 'retry-after': '3' })(response);
  };

  it('reads as the Headers fetch gives for the same answer, however it is read', async () => {
    const { client } = await serve(answer);
    const viaNode = (await client().transactions.get(transaction.ticket)).lastResponse.headers;
    const viaFetch = (await client({ fetch }).transactions.get(transaction.ticket)).lastResponse.headers;
    const drop = (entries: [string, string][]) => entries.filter(([name]) => name !== 'date');
    expect(viaNode).toBeInstanceOf(Headers);
    expect(viaNode.get('x-request-id')).toBe('req-42');
    expect(viaNode.has('RETRY-AFTER')).toBe(true);
    expect(viaNode.get('x-trace')).toBe('one, two');
    expect(viaNode.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(drop([...viaNode])).toEqual(drop([...viaFetch]));
    expect(drop([...new Headers(viaNode)])).toEqual(drop([...viaFetch]));
    expect(inspect(viaNode)).toMatch(/'x-request-id': 'req-42'/i);
  });

  it('each read of a fresh answer sees it whole, whichever method reads first', async () => {
    const { client } = await serve(answer);
    const sdk = client();
    const fresh = async () => (await sdk.transactions.get(transaction.ticket)).lastResponse.headers;
    expect([...(await fresh()).keys()]).toContain('x-request-id');
    expect([...(await fresh()).values()]).toContain('req-42');
    const seen: string[] = [];
    (await fresh()).forEach((_value, name) => {
      seen.push(name);
    });
    expect(seen).toContain('x-request-id');
    const changed = await fresh();
    changed.set('x-request-id', 'mine');
    changed.append('x-extra', '1');
    expect([changed.get('x-request-id'), changed.get('x-extra'), changed.get('retry-after')]).toEqual([
      'mine',
      '1',
      '3',
    ]);
    const deleted = await fresh();
    deleted.delete('retry-after');
    expect([deleted.has('retry-after'), deleted.get('x-request-id')]).toEqual([false, 'req-42']);
  });
});

describe('reads every answer fetch would read', () => {
  it.each([
    ['gzip', zlib.gzipSync(lookup)],
    ['deflate', zlib.deflateSync(lookup)],
    ['br', zlib.brotliCompressSync(lookup)],
  ])('a %s-compressed answer', async (encoding, body) => {
    const { client } = await serve(json(body, { 'content-encoding': encoding }));
    const found = await client().transactions.get(transaction.ticket);
    expect(found.customer?.full_name).toBe('Ñandú Pérez');
  });

  it('multi-byte characters split across chunks', async () => {
    const { client } = await serve((response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      // Every byte its own chunk: "Ñ" and "é" are cut between their two bytes.
      const write = (i: number): void => {
        if (i === lookup.length) return void response.end();
        response.write(lookup.subarray(i, i + 1), () => write(i + 1));
      };
      write(0);
    });
    const found = await client().transactions.get(transaction.ticket);
    expect(found.customer?.full_name).toBe('Ñandú Pérez');
  });

  it('a corrupt compressed body is a ConnectionError that names the call, not a crash', async () => {
    const { seen, client } = await serve(
      json(Buffer.from('not gzip at all'), { 'content-encoding': 'gzip' }),
    );
    const error = await client({ maxRetries: 1 })
      .transactions.get(transaction.ticket)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as ConnectionError).message).toMatch(
      /^GET \/api\/v1\/transaction\/\S+ got HTTP 200 from the service but could not read its body/,
    );
    // A read is safe to resend: one retry, as the retry table says.
    expect(seen).toHaveLength(2);
  });
});

describe('the body on the wire', () => {
  /** A server that records each request's headers and the bytes of its body, and refuses it. */
  async function recordBodies() {
    const requests: { headers: IncomingHttpHeaders; bytes: number; body: string }[] = [];
    const local = await startLocalServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        requests.push({ headers: request.headers, bytes: body.length, body: body.toString('utf8') });
        response.writeHead(422, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: '00', status: 'ERROR', error: 'INVALID', message: 'no' }));
      });
    });
    close = local.close;
    return { requests, client: new PaymentClient({ ...CREDENTIALS, baseUrl: local.baseUrl, maxRetries: 0 }) };
  }

  it("a create's Content-Length is its body's, even when the call's own headers name another", async () => {
    const { requests, client } = await recordBodies();
    await expect(client.payin.create(payinCO)).rejects.toThrow(/HTTP 422/);
    await expect(client.payin.create(payinCO, { headers: { 'Content-Length': '2' } })).rejects.toThrow(
      /HTTP 422/,
    );
    expect(requests).toHaveLength(2);
    for (const { headers, bytes, body } of requests) {
      expect(headers['content-length']).toBe(String(bytes));
      expect(headers['transfer-encoding']).toBeUndefined();
      // The whole body arrived: it parses, and it is the create's.
      expect(JSON.parse(body)).toMatchObject({ reference: payinCO.reference, amount: payinCO.amount });
    }
  });

  it('a lookup sends no body and no Content-Length', async () => {
    const { requests, client } = await recordBodies();
    await expect(client.transactions.get(transaction.ticket)).rejects.toThrow(/HTTP 422/);
    expect(requests[0]?.bytes).toBe(0);
    expect(requests[0]?.headers['content-length']).toBeUndefined();
    expect(requests[0]?.headers['transfer-encoding']).toBeUndefined();
  });
});

describe('where a request goes', () => {
  // The sender parses a client's origin once and hands node:http the path as it is when URL would
  // send it unchanged (src/node/target.ts): the server must see what a URL parse gives, Host included.
  it.each([
    ['an IPv4 address', '127.0.0.1'],
    ['a host name', 'localhost'],
    ['an IPv6 address', '::1'],
  ])('%s: the Host header and request target are what URL parsing gives', async (_, host) => {
    const seen: { host: string | undefined; target: string | undefined }[] = [];
    const server = createServer((request, response) => {
      seen.push({ host: request.headers.host, target: request.url });
      request.resume().on('end', () => json(lookup)(response));
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl: `${origin}/`, maxRetries: 0 });
    // A ticket that stays as it is, then one with characters encodeURIComponent leaves and URL keeps.
    for (const ticket of [transaction.ticket, "T-1_a.b~c!*'()"]) {
      await client.transactions.get(ticket).catch(() => undefined);
    }
    server.closeAllConnections();
    const url = (ticket: string) => new URL(`${origin}/api/v1/transaction/${encodeURIComponent(ticket)}`);
    expect(seen).toEqual(
      [transaction.ticket, "T-1_a.b~c!*'()"].map((ticket) => ({
        host: url(ticket).host,
        target: url(ticket).pathname,
      })),
    );
  });
});
