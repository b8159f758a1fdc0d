/**
 * Several merchants, one receiver: a merchant with accounts in CO, PE and MX runs one endpoint.
 * `token` is a string, an array or a record; each delivery is checked against every token and
 * onEvent learns which merchant's token signed it. Over HTTP to a real node:http receiver.
 */
import { afterEach, describe, it } from 'vitest';
import {
  ConfigurationError,
  createWebhookHandler,
  verifyWebhook,
  verifyWebhookAsync,
  type WebhookEventContext,
  WebhookVerificationError,
} from '../../src/index.js';
import { delivery, recordingLogger, sampleEvent, serveHandler } from './support.js';

const TOKENS = { co: 'tok-co-8c1f2e9a', pe: 'tok-pe-51d0b7c3', mx: 'tok-mx-a94e60f2' };

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function endpoint(token: string | string[] | Record<string, string>) {
  const seen: { ticket: string; merchant: WebhookEventContext['merchant'] }[] = [];
  const logger = recordingLogger();
  const handler = createWebhookHandler({
    token,
    logger,
    onEvent: (event, { merchant }) => void seen.push({ ticket: event.top_ticket, merchant }),
  });
  const served = await serveHandler(handler);
  closers.push(served.close);
  return { ...served, seen, logger };
}

describe('a record { [merchant]: token }', () => {
  it('a delivery signed by each account reaches onEvent with that merchant', async ({ expect }) => {
    const { post, seen } = await endpoint(TOKENS);
    for (const [merchant, token] of Object.entries(TOKENS)) {
      const answer = await post(delivery(sampleEvent({ top_ticket: `T-${merchant}` }), token));
      expect(answer.status).toBe(200);
    }
    expect(seen).toEqual([
      { ticket: 'T-co', merchant: 'co' },
      { ticket: 'T-pe', merchant: 'pe' },
      { ticket: 'T-mx', merchant: 'mx' },
    ]);
  });

  it('a delivery none signed is 401, saying none of the 3 tokens matched (not a scheme hint)', async ({
    expect,
  }) => {
    const { post, seen, logger } = await endpoint(TOKENS);
    const answer = await post(delivery(sampleEvent(), 'tok-gt-unknown'));
    expect(answer.status).toBe(401);
    expect(answer.body.message).toMatch(/matches none of the 3 tokens \(merchants co, pe, mx\)/);
    expect(answer.body.message).not.toMatch(/detectWebhookScheme|another scheme/);
    expect(seen).toEqual([]);
    expect(logger.lines[0]!.message).toMatch(/none of the 3 tokens/);
    for (const token of Object.values(TOKENS))
      expect(JSON.stringify([answer, logger.lines])).not.toContain(token);
  });
});

describe('an array of tokens', () => {
  it('onEvent gets the index of the token that signed it', async ({ expect }) => {
    const { post, seen } = await endpoint([TOKENS.co, TOKENS.pe]);
    expect((await post(delivery(sampleEvent({ top_ticket: 'A' }), TOKENS.pe))).status).toBe(200);
    expect((await post(delivery(sampleEvent({ top_ticket: 'B' }), TOKENS.co))).status).toBe(200);
    expect(seen).toEqual([
      { ticket: 'A', merchant: 1 },
      { ticket: 'B', merchant: 0 },
    ]);
    const refused = await post(delivery(sampleEvent(), TOKENS.mx));
    expect(refused.body.message).toMatch(/none of the 2 tokens \(indexes 0, 1\)/);
  });

  it('a list of one token is counted as one, in words that read', async ({ expect }) => {
    const { post } = await endpoint([TOKENS.co]);
    const refused = await post(delivery(sampleEvent(), TOKENS.mx));
    expect(refused.status).toBe(401);
    expect(refused.body.message).toMatch(
      /none of the 1 token \(index 0\): the delivery was not signed with it\./,
    );
  });
});

describe('one token, as before', () => {
  it('no merchant in the context; a mismatch keeps the single-token advice', async ({ expect }) => {
    const { post, seen } = await endpoint(TOKENS.co);
    await post(delivery(sampleEvent(), TOKENS.co));
    expect(seen).toEqual([{ ticket: 'TCK-0001', merchant: undefined }]);
    const refused = await post(delivery(sampleEvent(), TOKENS.pe));
    expect(refused.body.message).toMatch(/does not match this body/);
    // The usual cause first (another merchant's delivery: the several-tokens setup), the scheme last.
    const message = String(refused.body.message);
    expect(message).toMatch(/Usual cause: a delivery for another merchant/);
    expect(message).toContain('node_modules/payinout/docs/webhooks.md#several-merchants-one-receiver');
    expect(message.indexOf('token: {')).toBeGreaterThan(-1);
    expect(message.indexOf('token: {')).toBeLessThan(message.indexOf('detectWebhookScheme()'));
  });
});

describe('verifyWebhook and verifyWebhookAsync take the same forms', () => {
  it('the event names its merchant (non-enumerable: JSON and spreads are unchanged)', async ({ expect }) => {
    const { body, headers } = delivery(sampleEvent(), TOKENS.mx);
    const event = verifyWebhook(body, headers, { token: TOKENS });
    expect((event as { merchant?: unknown }).merchant).toBe('mx');
    expect(Object.keys(event)).not.toContain('merchant');
    const viaAsync = await verifyWebhookAsync(body, headers, { token: Object.values(TOKENS) });
    expect((viaAsync as { merchant?: unknown }).merchant).toBe(2);
    expect(() => verifyWebhook(body, headers, { token: [TOKENS.co, TOKENS.pe] })).toThrow(
      WebhookVerificationError,
    );
  });

  it.for([
    [[], /lists no merchant token/],
    [{}, /lists no merchant token/],
    [[TOKENS.co, ''], /token \[1\] must be a non-empty string/],
    [{ co: TOKENS.co, pe: 42 }, /token 'pe' must be a non-empty string/],
    // One token for two merchants: onEvent could not be told which one a delivery is for.
    [{ co: TOKENS.co, pe: TOKENS.co }, /token 'co' and 'pe' are the same token/],
    [[TOKENS.co, TOKENS.pe, TOKENS.co], /token \[0\] and \[2\] are the same token/],
    ['', /needs \{ token \}/],
    [undefined, /needs \{ token \}/],
  ] as const)('a token of %j is a ConfigurationError at creation', ([token, message], { expect }) => {
    const create = () => createWebhookHandler({ token: token as never, onEvent: () => {} });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(message);
    const { body, headers } = delivery();
    expect(() => verifyWebhook(body, headers, { token: token as never })).toThrow(ConfigurationError);
  });
});
