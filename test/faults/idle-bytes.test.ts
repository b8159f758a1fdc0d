/**
 * Defect 1 of 0.3 (response desync): a server or proxy that writes bytes on an idle keep-alive
 * connection. Those bytes answer no request; read as the next request's answer they turned a
 * committed PayOut into a 422. Both senders (this folder runs in the `node` and `fetch` projects)
 * must answer every call with its own answer: a connection that received anything while idle
 * serves nothing more.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../src/index.js';
import { payoutCO } from '../helpers/fixtures.js';
import { CREDENTIALS } from '../helpers/msw.js';

const STRAY_422 = httpAnswer(422, {
  code: '00',
  status: 'ERROR',
  error: 'VALIDATION_ERROR',
  message: 'stray answer nobody asked for',
});

interface Received {
  line: string;
  connection: number;
}

let close: (() => void) | undefined;
afterEach(() => {
  close?.();
  close = undefined;
});

function httpAnswer(status: number, envelope: unknown): string {
  const body = JSON.stringify(envelope);
  return (
    `HTTP/1.1 ${status} ${status === 200 ? 'OK' : 'Unprocessable Entity'}\r\n` +
    'content-type: application/json\r\nconnection: keep-alive\r\nkeep-alive: timeout=30\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** The service's answer to one request line: a created PayOut for a create, a balance otherwise. */
function answerFor(line: string, body: string): string {
  if (line.startsWith('POST /api/v1/payout')) {
    const sent = JSON.parse(body) as Record<string, unknown>;
    const transaction = { reference: sent.reference, amount: sent.amount, currency: sent.currency };
    const data = { ticket: 'T-own-answer', date: '2025-01-15 10:30:00', transaction };
    return httpAnswer(200, { code: '01', status: 'SUCCESS', message: 'ok', data });
  }
  const data = { currency: 'COP', balance: 10.5, balance_formatted: 'COP 10,50' };
  return httpAnswer(200, { code: '01', status: 'SUCCESS', message: '', data });
}

/**
 * A raw HTTP/1.1 server on 127.0.0.1 that keeps connections alive and, `strayAfterMs` after
 * answering a connection's first request, writes `stray` on it while it is idle — or, with
 * 'same write', right behind that answer in one write (response splitting, a proxy bug), so the
 * stray bytes arrive with the answer asked for. `rest` goes right before the answer to the
 * connection's second request (the remainder of a stray cut in two).
 */
async function strayWriter(stray: string, strayAfterMs: number | 'same write' = 30, rest = '') {
  const received: Received[] = [];
  const sockets = new Set<net.Socket>();
  let strayWritten: () => void = () => {};
  // The premise of an idle-bytes case: the stray bytes are on the client's socket before its next
  // call. Waited for, not timed: a loaded machine fired the server's timer after a fixed pause.
  const written = new Promise<void>((resolve) => {
    strayWritten = resolve;
  });
  const server = net.createServer((socket) => {
    const connection = sockets.size;
    sockets.add(socket);
    socket.on('error', () => {});
    let buffered = Buffer.alloc(0);
    let answered = 0;
    socket.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/content-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const body = buffered.subarray(end + 4, end + 4 + length).toString('utf8');
        buffered = buffered.subarray(end + 4 + length);
        const line = head.split('\r\n')[0] ?? '';
        received.push({ line, connection });
        const first = answered++ === 0;
        if (first && strayAfterMs === 'same write') socket.write(answerFor(line, body) + stray);
        else if (answered === 2) socket.write(rest + answerFor(line, body));
        else socket.write(answerFor(line, body));
        if (first && strayAfterMs !== 'same write') {
          setTimeout(() => {
            if (socket.writable) socket.write(stray, () => strayWritten());
          }, strayAfterMs);
        }
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  close = () => {
    for (const socket of sockets) socket.destroy();
    server.close();
  };
  const { port } = server.address() as net.AddressInfo;
  return { received, written, baseUrl: `http://127.0.0.1:${port}` };
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('bytes a server writes on an idle keep-alive connection', () => {
  it('a stray 422 is never read as the answer to the next create: the PayOut is reported created, sent once', async () => {
    const { received, written, baseUrl } = await strayWriter(STRAY_422);
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    await expect(client.merchant.getBalance()).resolves.toMatchObject({ balance: 10.5 });
    await written;
    await pause(50);
    const created = await client.payout.create({ ...payoutCO, reference: 'idle-bytes-1' });
    expect(created).toMatchObject({ ticket: 'T-own-answer' });
    const creates = received.filter((r) => r.line.startsWith('POST'));
    expect(creates).toHaveLength(1);
    // It went out on a fresh connection, not on the one that received the stray bytes.
    expect(creates[0]!.connection).not.toBe(received[0]!.connection);
  });

  it.each([
    ['a partial status line', 'HTTP/1.1 2'],
    ['garbage', '\u0000\u00ff not http at all\r\n'],
    ['a complete 200', answerFor('GET /api/v1/merchant/balance', '')],
    // What some servers write before closing an idle connection.
    [
      'a 408 Request Timeout',
      'HTTP/1.1 408 Request Timeout\r\nconnection: close\r\ncontent-length: 0\r\n\r\n',
    ],
  ])('%s written while idle: the next call gets its own answer', async (_, stray) => {
    const { received, written, baseUrl } = await strayWriter(stray);
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    await client.merchant.getBalance();
    await written;
    await pause(50);
    const created = await client.payout.create({ ...payoutCO, reference: 'idle-bytes-2' });
    expect(created).toMatchObject({ ticket: 'T-own-answer' });
    expect(received.filter((r) => r.line.startsWith('POST'))).toHaveLength(1);
  });

  it('a quiet idle connection is still reused (the fix does not turn keep-alive off)', async () => {
    const { received, baseUrl } = await strayWriter('', 10);
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    await client.merchant.getBalance();
    await pause(100);
    await client.payout.create({ ...payoutCO, reference: 'idle-bytes-3' });
    expect(received.map((r) => r.connection)).toEqual([0, 0]);
  });
});

describe('bytes a server writes right behind an answer, in the same write', () => {
  it.each([
    ['a complete stray 422', STRAY_422],
    ['a complete stray 200', answerFor('GET /api/v1/merchant/balance', '')],
    ['a partial status line', 'HTTP/1.1 4'],
  ])('%s: the next create gets its own answer, sent once', async (_, stray) => {
    const { received, baseUrl } = await strayWriter(stray, 'same write');
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    await expect(client.merchant.getBalance()).resolves.toMatchObject({ balance: 10.5 });
    const created = await client.payout.create({ ...payoutCO, reference: 'same-write-1' });
    expect(created).toMatchObject({ ticket: 'T-own-answer' });
    const creates = received.filter((r) => r.line.startsWith('POST'));
    expect(creates).toHaveLength(1);
    expect(creates[0]!.connection).not.toBe(received[0]!.connection);
  });

  it('a stray 422 cut in two, its status line with the answer and the rest before the next answer: the next create gets its own answer', async () => {
    const cut = STRAY_422.indexOf('\r\n') + 2;
    const { received, baseUrl } = await strayWriter(
      STRAY_422.slice(0, cut),
      'same write',
      STRAY_422.slice(cut),
    );
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    await client.merchant.getBalance();
    const created = await client.payout.create({ ...payoutCO, reference: 'same-write-3' });
    expect(created).toMatchObject({ ticket: 'T-own-answer' });
    expect(received.filter((r) => r.line.startsWith('POST'))).toHaveLength(1);
  });

  it('after a pause too: the stray bytes are not waiting in the pool for the next request', async () => {
    const { received, baseUrl } = await strayWriter(STRAY_422, 'same write');
    const client = new PaymentClient({ ...CREDENTIALS, baseUrl, maxRetries: 0 });
    await client.merchant.getBalance();
    await pause(100);
    const created = await client.payout.create({ ...payoutCO, reference: 'same-write-2' });
    expect(created).toMatchObject({ ticket: 'T-own-answer' });
    expect(received.filter((r) => r.line.startsWith('POST'))).toHaveLength(1);
  });
});
