/**
 * The OpenAPI document: valid OpenAPI 3.1 (by a maintained validator), complete against the
 * operations table, and true to the simulator — every endpoint's answers, success and error,
 * fetched over HTTP, validate against the document's response schemas (ajv, JSON Schema 2020-12).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_LIST, type OperationId } from '../../src/api/index.js';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { basic, CUSTOMER_CO, payIn, payOut } from '../testing/helpers.js';
import { document, type Json, validateAnswer, validateWebhook } from './validate.js';

describe('the document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toStrictEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('has every operation of the table with its method, security and request body', () => {
    for (const op of OPERATION_LIST) {
      const entry = document.paths[op.template]?.[op.method.toLowerCase()];
      expect(entry, op.id).toMatchObject({ operationId: op.id });
      expect(Boolean(entry.requestBody), op.id).toBe(op.request !== undefined);
      const schemes = entry.security.map((s: Json) => Object.keys(s).sort().join('+'));
      expect(schemes, op.id).toContain('basicAuth+tokenTop');
      expect(schemes.includes('tokenTop'), op.id).toBe(op.auth === 'token');
    }
    expect(document.paths['/api/v1/payin'].post.deprecated).toBe(true);
    expect(document.components.securitySchemes).toStrictEqual({
      basicAuth: expect.objectContaining({ type: 'http', scheme: 'basic' }),
      tokenTop: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Token-Top' }),
    });
  });

  it('describes the webhook with its x-trx-signature header', () => {
    const post = document.webhooks.transactionStatus.post;
    expect(post.parameters).toContainEqual(
      expect.objectContaining({ name: 'x-trx-signature', in: 'header', required: true }),
    );
    expect(post.requestBody.content['application/json'].schema).toStrictEqual({
      $ref: '#/components/schemas/WebhookEvent',
    });
  });

  it('documents the sandbox confirm errors of the guide, the 404 with the bare body', () => {
    const responses = document.paths['/api/v1/sandbox/payin/confirm'].post.responses;
    expect(Object.keys(responses)).toStrictEqual(['200', '404', '422', '500', 'default']);
    expect(responses['404'].content['application/json'].schema.$ref).toMatch(/NotFoundBody$/);
    for (const code of ['VALIDATION_ERROR', 'TYPE_MISMATCH', 'ALREADY_FINAL', 'STATUS_NOT_SUPPORTED']) {
      expect(responses['422'].description).toContain(code);
    }
  });
});

describe('the simulator answers as the document says', () => {
  let server: SandboxServer;
  const co = { username: 'demo-co', password: 'demo-co-pass', token: 'demo-co-token' };
  type Auth = 'basic+token' | 'token' | 'none';
  const headers = (body?: unknown, auth: Auth = 'basic+token') => ({
    ...(auth === 'basic+token' ? { authorization: basic(co.username, co.password) } : {}),
    ...(auth === 'none' ? {} : { 'token-top': co.token }),
    ...(body === undefined ? {} : { 'content-type': 'application/json' }),
  });
  async function call(method: string, path: string, body?: unknown, auth?: Auth) {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: headers(body, auth),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Json };
  }

  beforeAll(async () => {
    server = await startSandboxServer({ webhooks: false });
  });
  afterAll(() => server.close());

  it('serves the document at GET /openapi.json without credentials, naming itself as server', async () => {
    const response = await fetch(`${server.url}/openapi.json`);
    expect(response.status).toBe(200);
    const served = (await response.json()) as Json;
    expect(served.servers).toStrictEqual([expect.objectContaining({ url: server.url })]);
    expect({ ...served, servers: document.servers }).toStrictEqual(document);
  });

  it('every endpoint, success and error, validates against its response schema', async () => {
    const payin = await call('POST', '/api/v2/payin', payIn());
    const ticket = payin.body.data.ticket as string;
    const approved = await call('POST', '/api/v1/sandbox/payin/confirm', {
      transaction_id: ticket,
      payment_method: 'BREB',
      status: 'APPROVED',
    });
    const payout = await call('POST', '/api/v1/payout', payOut());
    const legacy = payIn({
      redirect_url: 'https://shop.example/back',
      payment_method: 'PSE',
      amount: 20_000,
    });
    const cases: [OperationId, { status: number; body: Json }][] = [
      ['payin.create', payin],
      ['payin.create', await call('POST', '/api/v2/payin', payIn({ amount: -1 }))],
      ['payin.createLegacy', await call('POST', '/api/v1/payin', legacy)],
      ['payin.createLegacy', await call('POST', '/api/v1/payin', { ...legacy, amount: 1.5 })],
      ['payin.listPseBanks', await call('GET', '/api/v1/pse/banks')],
      ['payin.listPseBanks', await call('GET', '/api/v1/pse/banks', undefined, 'token')],
      ['payout.create', payout],
      ['payout.create', await call('POST', '/api/v1/payout', payOut({ amount: 10 ** 12 }))],
      ['merchant.getProfile', await call('GET', '/api/v1/merchant/me', undefined, 'token')],
      ['merchant.getProfile', await call('GET', '/api/v1/merchant/me', undefined, 'none')],
      ['merchant.getBalance', await call('GET', '/api/v1/merchant/balance')],
      ['merchant.getBalance', await call('GET', '/api/v1/merchant/balance', undefined, 'token')],
      ['transactions.get', await call('GET', `/api/v1/transaction/${ticket}`)],
      ['transactions.get', await call('GET', '/api/v1/transaction/no-such-ticket')],
      ['transactions.getByPost', await call('POST', `/api/v1/transaction/${ticket}`, { ticket })],
      ['transactions.getByPost', await call('POST', '/api/v1/transaction/nope', { ticket: 'nope' })],
      ['sandbox.confirmPayIn', approved],
      [
        'sandbox.confirmPayIn',
        await call('POST', '/api/v1/sandbox/payin/confirm', {
          transaction_id: 'nope',
          payment_method: 'BREB',
          status: 'APPROVED',
        }),
      ],
      [
        'sandbox.confirmPayIn',
        await call('POST', '/api/v1/sandbox/payin/confirm', {
          transaction_id: ticket,
          payment_method: 'BREB',
          status: 'EXPIRED',
        }),
      ],
      [
        'sandbox.confirmPayOut',
        await call('POST', '/api/v1/sandbox/payout/confirm', {
          transaction_id: payout.body.data.ticket,
          payment_method: 'BANK_TRANSFER',
          status: 'APPROVED',
        }),
      ],
      [
        'sandbox.confirmPayOut',
        await call('POST', '/api/v1/sandbox/payout/confirm', {
          transaction_id: ticket,
          payment_method: 'BREB',
          status: 'APPROVED',
        }),
      ],
    ];
    const seen = new Map<OperationId, Set<string>>();
    for (const [op, answer] of cases) {
      const kind = answer.status === 200 ? 'success' : 'error';
      seen.set(op, (seen.get(op) ?? new Set()).add(kind));
      expect(validateAnswer(op, answer.status, answer.body), `${op} HTTP ${answer.status}`).toStrictEqual([]);
    }
    // Every operation of the table was exercised both ways.
    for (const op of OPERATION_LIST)
      expect([...(seen.get(op.id as OperationId) ?? [])].sort(), op.id).toStrictEqual(['error', 'success']);
  });

  it('a webhook delivery validates against the webhook schema and carries x-trx-signature', async () => {
    const { sandbox } = server;
    const created = await call('POST', '/api/v2/payin', payIn({ customer_data: CUSTOMER_CO }));
    await call('POST', '/api/v1/sandbox/payin/confirm', {
      transaction_id: created.body.data.ticket,
      payment_method: 'BREB',
      status: 'REJECTED',
    });
    const delivery = sandbox.deliveries.at(-1)!;
    expect(delivery.headers['x-trx-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(validateWebhook(JSON.parse(delivery.body))).toStrictEqual([]);
  });
});
