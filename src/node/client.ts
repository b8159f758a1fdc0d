/**
 * `PaymentClient` as Node gets it (the `node` export condition, and the CLI): a client built
 * without a `fetch` option sends over `node:http` (sender.ts). The sender is a static of this
 * class, passed to each client it builds; nothing global is changed, so a client built from the
 * main entry in the same process still sends with `fetch`. The one process-wide step is the parse
 * fast path below, which changes no result (src/schemas/fast.ts).
 */
import { PaymentClient as FetchPaymentClient } from '../client.js';
import { PLATFORM_SENDER, type Sender } from '../core/sender.js';
import { fastParse } from '../schemas/fast.js';
import { installFastPath } from '../schemas/kit.js';
import { nodeSender } from './sender.js';

// Node reads requests and answers through the compiled fast path: the same results as zod alone,
// faster; the main entry leaves it out to keep the Workers and browser bundle small (kit.ts).
installFastPath(fastParse);

export class PaymentClient extends FetchPaymentClient {
  /** @internal */
  static override readonly [PLATFORM_SENDER]: Sender | undefined = nodeSender;
}

// The bundle holds the main entry's PaymentClient too, so esbuild renames this one
// (`PaymentClient2`); `client.constructor.name` and `util.inspect(client)` keep the public name.
Object.defineProperty(PaymentClient, 'name', { value: 'PaymentClient' });
