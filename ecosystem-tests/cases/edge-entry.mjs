/**
 * Vercel's Edge Runtime has no `node:` built-ins at all. Bundled by hosts/edge.mjs (as Next.js
 * bundles an edge route) and evaluated in @edge-runtime/vm: the client's money flow and
 * createWebhookHandler's Fetch form, which verifies with Web Crypto there. The synchronous
 * verifyWebhook needs node:crypto (README "Requirements") and says so with a typed error.
 */
import * as payinout from 'payinout';
import { check, MERCHANT, moneyFlow, webhookChecks } from './money-flow.mjs';

globalThis.edgeCase = {
  flow: (baseUrl, ipnUrl) => moneyFlow(payinout, { baseUrl, ipnUrl, label: 'edge-runtime' }),
  webhook: async (delivery) => {
    check(typeof process === 'undefined' || !process.getBuiltinModule, 'no node built-ins in this runtime');
    const checks = await webhookChecks(payinout, { ...delivery, token: MERCHANT.token, sync: false });
    let refusal;
    try {
      payinout.verifyWebhook(delivery.body, delivery.headers, { token: MERCHANT.token });
    } catch (error) {
      refusal = error;
    }
    check(refusal instanceof payinout.ConfigurationError, `sync verifyWebhook refuses with ${refusal?.name}`);
    return checks;
  },
};
