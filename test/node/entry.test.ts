/**
 * The Node entry passes its sender in; it installs nothing: in one process, a client from the
 * Node entry sends over node:http while a client from the main entry still sends with fetch.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PaymentClient as NodeClient } from '../../src/node/index.js';
import { transaction } from '../helpers/fixtures.js';
import { startLocalServer } from '../helpers/local-server.js';
import { CREDENTIALS } from '../helpers/msw.js';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await close?.();
});

describe('the Node entry', () => {
  it("builds clients that send over node:http, and changes nothing for the main entry's clients", async () => {
    const local = await startLocalServer((request, response) => {
      request.resume().on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ code: '01', status: 'SUCCESS', message: '', data: transaction }));
      });
    });
    close = local.close;
    // The main entry as published (the node vitest project swaps it for the Node one otherwise).
    const main = await vi.importActual<typeof import('../../src/client.js')>('../../src/client.js');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const options = { ...CREDENTIALS, baseUrl: local.baseUrl, maxRetries: 0 };

    await new NodeClient(options).transactions.get(transaction.ticket);
    await NodeClient.fromEnv({}, options).transactions.get(transaction.ticket);
    expect(fetchSpy).not.toHaveBeenCalled();

    await new main.PaymentClient(options).transactions.get(transaction.ticket);
    expect(fetchSpy).toHaveBeenCalledTimes(1);
    expect(NodeClient.fromEnv({}, options)).toBeInstanceOf(main.PaymentClient);
  });
});

describe('importing the Node entry', () => {
  it('loads neither node:http, node:https nor node:zlib: each loads on first use (cold start)', () => {
    const entry = fileURLToPath(new URL('../../src/node/index.ts', import.meta.url));
    const script = `await import(${JSON.stringify(entry)});
      const list = () => process.moduleLoadList.filter((m) => /^NativeModule (http|https|zlib|tls)$/.test(m));
      process.stdout.write(JSON.stringify(list()));`;
    const loaded = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
    });
    expect(JSON.parse(loaded)).toStrictEqual([]);
  });
});
