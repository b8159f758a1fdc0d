/**
 * The simulator's own messages with the demo credentials stay readable through redaction
 * ("Invalid username or password.", not "[REDACTED]word"), while the credentials never appear.
 * A real simulator on 127.0.0.1, port 0.
 */
import { inspect } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, PaymentClient } from '../../src/index.js';
import { demoMerchants, type SandboxServer, startSandboxServer } from '../../src/testing/index.js';

function views(error: unknown): string {
  const e = error as Error & { serviceMessage?: unknown };
  return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10 }), String(e.serviceMessage)].join(
    '\n',
  );
}

describe("the simulator's messages with the demo credentials", () => {
  let server: SandboxServer;
  const demo = demoMerchants()[0]!;
  beforeAll(async () => {
    server = await startSandboxServer({ host: '127.0.0.1', port: 0, webhooks: false });
  });
  afterAll(() => server.close());

  const client = (password: string, token: string) =>
    new PaymentClient({ username: demo.username, password, token, baseUrl: server.url, maxRetries: 0 });

  it('a wrong password reads "Invalid username or password."', async () => {
    const error = await client(`${demo.password}-x`, demo.token)
      .merchant.getBalance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const text = views(error);
    expect(text).toContain('Invalid username or password.');
    expect(text).not.toMatch(/\[REDACTED\]\w|\w\[REDACTED\]/);
    expect(text).not.toContain(`${demo.password}-x`);
  });

  it('a token of another merchant reads "Invalid merchant token for these credentials."', async () => {
    const other = demoMerchants()[1]!;
    const error = await client(demo.password, other.token)
      .merchant.getBalance()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    const text = views(error);
    expect(text).toContain('Invalid merchant token for these credentials.');
    expect(text).not.toContain(other.token);
    expect(text).not.toContain(demo.password);
  });
});
