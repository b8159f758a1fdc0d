/** The client behind `payinout get` and `payinout confirm`: the PAYINOUT_* environment. */
import { PaymentClient } from '../node/client.js';
import { VERSION } from '../version.js';

export function clientFromEnv(): PaymentClient {
  return PaymentClient.fromEnv(process.env, { appInfo: { name: 'payinout-cli', version: VERSION } });
}
