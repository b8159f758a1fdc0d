/**
 * Tests run as Node users get payinout: clients without a `fetch` option send over `node:http`.
 * Node users import the `node` entry, whose PaymentClient passes that sender in
 * (src/node/client.ts); tests import src/index.ts directly, so here the main entry's
 * PaymentClient is replaced by the Node one for every suite of the `node` project. The `fetch`
 * project of vitest.config.ts runs the transport suites again without it.
 */
import { vi } from 'vitest';

vi.mock('../../src/client.js', async (importOriginal) => {
  const main = await importOriginal<typeof import('../../src/client.js')>();
  const { PLATFORM_SENDER } = await import('../../src/core/sender.js');
  const { nodeSender } = await import('../../src/node/sender.js');
  // And, as src/node/client.ts does, the parse fast path (the `fetch` project runs zod alone).
  const { installFastPath } = await import('../../src/schemas/kit.js');
  installFastPath((await import('../../src/schemas/fast.js')).fastParse);
  class PaymentClient extends main.PaymentClient {
    static readonly [PLATFORM_SENDER] = nodeSender;
  }
  return { ...main, PaymentClient };
});
