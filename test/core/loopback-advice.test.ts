/**
 * A ConnectionError to a loopback baseUrl nothing listens on asks whether `payinout sandbox` is
 * running (a real refused socket, both senders); any other host keeps the network advice.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionError, PaymentClient } from '../../src/index.js';
import { PaymentClient as NodePaymentClient } from '../../src/node/index.js';

/** A port that was free a moment ago and is closed now: connecting is refused. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const credentials = { username: 'demo-co', password: 'demo-co-pass', token: 'demo-co-token', maxRetries: 0 };

async function failure(client: { merchant: { getBalance(): Promise<unknown> } }): Promise<ConnectionError> {
  const error = await client.merchant.getBalance().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ConnectionError);
  return error as ConnectionError;
}

describe('ConnectionError to a loopback baseUrl', () => {
  it.each([
    ['fetch', PaymentClient],
    ['node:http', NodePaymentClient],
  ])(
    '%s sender: asks whether payinout sandbox is running, names the address, not_sent',
    async (_, Client) => {
      const port = await closedPort();
      for (const host of ['127.0.0.1', 'localhost']) {
        const error = await failure(
          new Client({ ...credentials, baseUrl: `http://${host}:${port}/api-root` }),
        );
        expect(error.outcome).toBe('not_sent');
        expect(error.message).toContain(
          `nothing listens at http://${host}:${port}. Is \`payinout sandbox\` running?`,
        );
        expect(error.message).not.toContain('demo-co-pass');
        // The advice once.
        expect(error.message.split('payinout sandbox').length - 1).toBe(2);
      }
    },
  );

  it('a non-loopback host keeps the network advice', async () => {
    const error = await failure(
      new PaymentClient({ ...credentials, baseUrl: 'https://payinout-no-such-host.invalid' }),
    );
    expect(error.message).not.toContain('payinout sandbox');
    expect(error.message).toContain('Check baseUrl and the network');
  });
});
