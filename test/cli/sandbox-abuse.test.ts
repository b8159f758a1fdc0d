/**
 * `payinout sandbox` under abuse (a real process, so a crash would show as an exit): bodies
 * nested 100k deep, a huge metadata, non-JSON content types, a body whose answer fails to
 * serialise — each an error envelope, and the simulator still answers afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { basic, CUSTOMER_CO } from '../testing/helpers.js';
import { killAll, spawnCli } from './support.js';

let cli: ReturnType<typeof spawnCli>;
let baseUrl: string;
const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' };
const json = { ...auth, 'content-type': 'application/json' };

beforeAll(async () => {
  cli = spawnCli(['sandbox', '--port', '0', '--time-scale', '0.001']);
  ({ baseUrl } = await cli.started);
}, 30_000);
afterAll(killAll);

async function post(path: string, body: string | Blob, headers: Record<string, string> = json) {
  const response = await fetch(`${baseUrl}${path}`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const payin = (fields: Record<string, unknown> = {}) =>
  JSON.stringify({
    reference: `abuse-${Math.random()}`,
    amount: 10_000,
    currency: 'COP',
    country: 'CO',
    payment_method: 'BREB',
    description: 'abuse',
    customer_data: CUSTOMER_CO,
    ...fields,
  });

async function stillServing() {
  const response = await fetch(`${baseUrl}/api/v1/merchant/balance`, { headers: auth });
  expect(response.status).toBe(200);
  expect(cli.child.exitCode).toBeNull();
}

describe('payinout sandbox survives abuse', () => {
  it.each([
    ['arrays', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['objects', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`],
    ['metadata', payin().replace(/}$/, `,"metadata":${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}}`)],
  ])('a body nested 100k levels deep (%s) is 400 BODY_TOO_DEEP', async (_name, body) => {
    const answer = await post('/api/v2/payin', body);
    expect(answer).toMatchObject({
      status: 400,
      body: { code: '00', status: 'ERROR', error: 'BODY_TOO_DEEP' },
    });
    await stillServing();
  });

  it('a huge metadata (above 1 MiB) is 413, a large one below the limit is an envelope too', async () => {
    const huge = await post('/api/v2/payin', payin({ metadata: { blob: 'x'.repeat(2_000_000) } }));
    expect(huge).toMatchObject({ status: 413, body: { error: 'PAYLOAD_TOO_LARGE' } });
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`k${i}`, i]));
    const large = await post('/api/v2/payin', payin({ metadata: wide }));
    expect([200, 422]).toContain(large.status);
    expect(large.body.code).toBeDefined();
    await stillServing();
  });

  it('a body that fails to serialise or parse (lone surrogates, NUL, invalid UTF-8) gets an envelope', async () => {
    const surrogate = await post('/api/v2/payin', payin({ reference: '\ud800order', description: '\u0000' }));
    expect(surrogate.body.code).toBeDefined();
    const bytes = await post(
      '/api/v2/payin',
      new Blob([new Uint8Array([0x7b, 0xff, 0xfe, 0x7d])], { type: 'application/json' }),
    );
    expect(bytes).toMatchObject({ status: 422, body: { error: 'VALIDATION_ERROR' } });
    // 1e400 parses to Infinity: refused by the schema, not echoed as a non-serialisable value.
    const infinite = await post('/api/v2/payin', payin().replace('"amount":10000', '"amount":1e400'));
    expect(infinite).toMatchObject({ status: 422, body: { error: 'VALIDATION_ERROR' } });
    await stillServing();
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['none', undefined],
  ])(
    'a body sent as %s is 415 UNSUPPORTED_MEDIA_TYPE (spec "Authentication", rule 3)',
    async (_name, type) => {
      const headers: Record<string, string> = { ...auth };
      if (type) headers['content-type'] = type;
      const answer = await post('/api/v2/payin', type ? payin() : new Blob([payin()]), headers);
      expect(answer).toMatchObject({ status: 415, body: { code: '00', error: 'UNSUPPORTED_MEDIA_TYPE' } });
      await stillServing();
    },
  );

  it('application/json with a charset is accepted', async () => {
    const answer = await post('/api/v2/payin', payin(), {
      ...json,
      'content-type': 'application/json; charset=utf-8',
    });
    expect(answer.status).toBe(200);
  });
});

describe('the HTTP front end never lets a failing answer crash the process', () => {
  it('an answer that cannot be serialised is a 500 envelope, and the server keeps serving', async () => {
    const { createSandbox, startSandboxServer } = await import('../../src/testing/index.js');
    const real = createSandbox({ webhooks: false });
    let calls = 0;
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const sandbox = {
      ...real,
      handle: () => ({ status: 200, headers: {}, body: ++calls === 1 ? circular : { ok: 1 } }),
    };
    const server = await startSandboxServer({ sandbox });
    try {
      const first = await fetch(`${server.url}/api/v1/merchant/balance`, { headers: auth });
      expect(first.status).toBe(500);
      expect(await first.json()).toMatchObject({ code: '00', status: 'ERROR', error: 'INTERNAL_ERROR' });
      const second = await fetch(`${server.url}/api/v1/merchant/balance`, { headers: auth });
      expect(await second.json()).toEqual({ ok: 1 });
    } finally {
      await server.close();
    }
  });
});
