/**
 * A Cloudflare Worker that uses payinout, bundled by workers.mjs the way wrangler bundles it.
 * POST /flow runs the money flow against the simulator (env.SIMULATOR_URL, on 127.0.0.1);
 * POST /webhooks is createWebhookHandler's Fetch form, where the simulator delivers;
 * GET /events lists what onEvent saw; POST /check runs the webhook checks on a delivery.
 */
import * as payinout from 'payinout';
import { MERCHANT, moneyFlow, webhookChecks } from './money-flow.mjs';

const events = [];
const handler = payinout.createWebhookHandler({
  token: MERCHANT.token,
  onEvent: (event) => void events.push({ ticket: event.top_ticket, status: event.top_status }),
});

const routes = {
  'POST /webhooks': (request) => handler(request),
  'GET /events': () => Response.json(events),
  'POST /flow': async (request, env) => {
    const { ipnUrl } = await request.json();
    return Response.json(await moneyFlow(payinout, { baseUrl: env.SIMULATOR_URL, ipnUrl, label: 'workerd' }));
  },
  'POST /check': async (request) => {
    const delivery = await request.json();
    return Response.json(await webhookChecks(payinout, { ...delivery, token: MERCHANT.token }));
  },
};

export default {
  async fetch(request, env) {
    const route = routes[`${request.method} ${new URL(request.url).pathname}`];
    if (!route) return new Response('no such route', { status: 404 });
    try {
      return await route(request, env);
    } catch (error) {
      return new Response(String(error?.stack ?? error), { status: 500 });
    }
  },
};
