import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  ConfigurationError,
  computeWebhookSignature,
  detectWebhookScheme,
  PaymentClient,
  verifyWebhook,
  WebhookVerificationError,
} from '../../src/index.js';
import { buildWebhookDelivery, signWebhook } from '../../src/testing/index.js';
import { delivery, jsonSignature, leaksSecrets, PII, sampleEvent, sha256, TOKEN } from './support.js';

function failure(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error('expected a WebhookVerificationError, nothing was thrown');
}

describe('computeWebhookSignature: known vectors', () => {
  const input = { token: 'secret-token', ticket: '12345', reference: 'ref-001' };

  it("'json' (default) is sha256 hex of JSON.stringify({ token, ticket, reference })", () => {
    const expected = '3384608d3135bee983cfa1d6928c2d866ff7157019e29e0a91321d6faabefe2e';
    expect(sha256('{"token":"secret-token","ticket":"12345","reference":"ref-001"}')).toBe(expected);
    expect(computeWebhookSignature(input)).toBe(expected);
    expect(signWebhook(input, 'json')).toBe(expected);
  });

  it("'concat' is sha256 hex of token + ticket + reference", () => {
    const expected = 'aba4da7f143e576dae3f49e40ecaa21c37f80aeeb30b19a75418f83be45ab3cc';
    expect(sha256('secret-token12345ref-001')).toBe(expected);
    expect(computeWebhookSignature(input, 'concat')).toBe(expected);
  });

  it('a custom scheme receives the three inputs', () => {
    const custom = ({ token, ticket, reference }: typeof input) => sha256(`${reference}|${ticket}|${token}`);
    expect(computeWebhookSignature(input, custom)).toBe(sha256('ref-001|12345|secret-token'));
  });
});

describe('verifyWebhook: genuine deliveries', () => {
  it('returns the typed event for a JSON delivery signed independently', () => {
    const { body, headers } = delivery();
    const event = verifyWebhook(body, headers, { token: TOKEN });
    expect(event).toMatchObject({ top_status: 'APPROVED', top_ticket: 'TCK-0001', top_amount: 150000 });
    expect(event.top_user?.email).toBe(PII.email);
  });

  it('accepts the body as string, Buffer and Uint8Array', () => {
    const { body, headers } = delivery();
    for (const raw of [body, Buffer.from(body), new TextEncoder().encode(body)]) {
      expect(verifyWebhook(raw, headers, { token: TOKEN }).top_reference).toBe('order-1001');
    }
  });

  it('reads the header from Fetch Headers, node IncomingHttpHeaders and plain records, any case', () => {
    const { body, headers } = delivery();
    const signature = headers['x-trx-signature'];
    const node: IncomingHttpHeaders = { 'x-trx-signature': signature, 'content-type': 'application/json' };
    const variants = [
      new Headers(headers),
      node,
      { 'X-Trx-Signature': signature },
      { 'X-TRX-SIGNATURE': [signature] },
    ];
    for (const variant of variants) {
      expect(verifyWebhook(body, variant, { token: TOKEN }).top_ticket).toBe('TCK-0001');
    }
  });

  it('accepts the hex digest in upper case and with surrounding whitespace', () => {
    const { body, headers } = delivery();
    const upper = { 'x-trx-signature': ` ${headers['x-trx-signature'].toUpperCase()} ` };
    expect(verifyWebhook(body, upper, { token: TOKEN }).top_status).toBe('APPROVED');
  });

  it("verifies the 'concat' scheme when selected, and refuses it under the default", () => {
    const event = sampleEvent();
    const body = JSON.stringify(event);
    const headers = { 'x-trx-signature': sha256(`${TOKEN}TCK-0001order-1001`) };
    expect(verifyWebhook(body, headers, { token: TOKEN, scheme: 'concat' }).top_ticket).toBe('TCK-0001');
    expect(failure(() => verifyWebhook(body, headers, { token: TOKEN })).reason).toBe('signature_mismatch');
  });

  it('is tolerant: unknown status and extra keys kept, numeric-string amount read as a number', () => {
    const { body, headers } = delivery(
      sampleEvent({ top_status: 'REFUNDED', top_amount: '150000.50', extra: 1 }),
    );
    const event = verifyWebhook(body, headers, { token: TOKEN });
    expect(event.top_status).toBe('REFUNDED');
    expect(event.top_amount).toBe(150000.5);
    expect((event as Record<string, unknown>).extra).toBe(1);
  });

  it('reads application/x-www-form-urlencoded with top_user as a JSON string', () => {
    const event = sampleEvent();
    const form = new URLSearchParams({
      top_status: 'APPROVED',
      top_ticket: 'TCK-0001',
      top_reference: 'order-1001',
      top_amount: '150000',
      top_user: JSON.stringify(event.top_user),
      top_card: JSON.stringify({ bin: '411111', lastFourDigits: '1111', brand: 'VISA' }),
    }).toString();
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-trx-signature': jsonSignature(TOKEN, 'TCK-0001', 'order-1001'),
    };
    const parsed = verifyWebhook(form, headers, { token: TOKEN });
    expect(parsed.top_amount).toBe(150000);
    expect(parsed.top_user?.full_name).toBe(PII.full_name);
    expect(parsed.top_card).toMatchObject({ bin: '411111', lastFourDigits: '1111', brand: 'VISA' });
  });

  it('reads bracketed form fields (top_user[email]=…)', () => {
    const form = 'top_status=PENDING&top_ticket=T9&top_reference=R9&top_user%5Bemail%5D=a%40b.co';
    const headers = { 'x-trx-signature': jsonSignature(TOKEN, 'T9', 'R9') };
    expect(verifyWebhook(form, headers, { token: TOKEN }).top_user?.email).toBe('a@b.co');
  });

  it('round-trips with buildWebhookDelivery in both encodings and both schemes', () => {
    for (const encoding of ['json', 'form'] as const) {
      for (const scheme of ['json', 'concat'] as const) {
        const { body, headers } = buildWebhookDelivery(sampleEvent() as never, {
          token: TOKEN,
          scheme,
          encoding,
        });
        expect(verifyWebhook(body, headers, { token: TOKEN, scheme }).top_user?.email).toBe(PII.email);
      }
    }
  });

  it('client.webhooks.verify uses the client token and webhookScheme', () => {
    const options = { username: 'u', password: 'p', token: TOKEN, baseUrl: 'https://api.example.com' };
    const { body, headers } = delivery();
    expect(new PaymentClient(options).webhooks.verify(body, headers).top_ticket).toBe('TCK-0001');
    const concat = new PaymentClient({ ...options, webhookScheme: 'concat' });
    expect(failure(() => concat.webhooks.verify(body, headers)).reason).toBe('signature_mismatch');
  });

  it('client.webhooks.verify takes maxBodyBytes, and refuses any other option by name', () => {
    const client = new PaymentClient({
      username: 'u',
      password: 'p',
      token: TOKEN,
      baseUrl: 'https://api.example.com',
    });
    const { body, headers } = delivery();
    expect(failure(() => client.webhooks.verify(body, headers, { maxBodyBytes: 16 })).reason).toBe(
      'body_too_large',
    );
    expect(() => client.webhooks.verify(body, headers, { maxBodyBytes: -1 })).toThrow(
      /^client\.webhooks\.verify: .*maxBodyBytes/,
    );
    expect(() => client.webhooks.verify(body, headers, { token: 'other' } as never)).toThrow(
      /^client\.webhooks\.verify: .*token/,
    );
  });
});

describe('verifyWebhook: refusals', () => {
  it('missing header → missing_signature', () => {
    const { body } = delivery();
    for (const headers of [{}, { 'x-trx-signature': '' }, new Headers()]) {
      expect(failure(() => verifyWebhook(body, headers, { token: TOKEN })).reason).toBe('missing_signature');
    }
  });

  it('tampering with a signed field (ticket, reference), the header or the token → signature_mismatch', () => {
    const { body, headers } = delivery();
    const tampered = [body.replace('TCK-0001', 'TCK-0002'), body.replace('order-1001', 'order-1002')];
    for (const forged of tampered) {
      expect(failure(() => verifyWebhook(forged, headers, { token: TOKEN })).reason).toBe(
        'signature_mismatch',
      );
    }
    expect(failure(() => verifyWebhook(body, headers, { token: 'other-token' })).reason).toBe(
      'signature_mismatch',
    );
    const flipped = headers['x-trx-signature'].replace(/^./, (c) => (c === '0' ? '1' : '0'));
    const bad = { 'x-trx-signature': flipped };
    expect(failure(() => verifyWebhook(body, bad, { token: TOKEN })).reason).toBe('signature_mismatch');
    const short = { 'x-trx-signature': headers['x-trx-signature'].slice(0, 10) };
    expect(failure(() => verifyWebhook(body, short, { token: TOKEN })).reason).toBe('signature_mismatch');
  });

  it('the signature covers only token, ticket and reference (spec "Events" rule 1), not the amount', () => {
    // Documented limitation (docs/webhooks.md): re-read the transaction before fulfilling on amount.
    const { body, headers } = delivery();
    const forged = body.replace('150000', '1');
    expect(verifyWebhook(forged, headers, { token: TOKEN }).top_amount).toBe(1);
  });

  it('a parsed object instead of the raw body → parsed_body, with how to get the raw body', () => {
    const { body, headers } = delivery();
    const error = failure(() => verifyWebhook(JSON.parse(body), headers, { token: TOKEN }));
    expect(error.reason).toBe('parsed_body');
    expect(error.message).toContain('express.raw');
    expect(error.message).toContain('req.text()');
  });

  it('over the size cap → body_too_large (default 256 KB, configurable)', () => {
    const big = delivery(sampleEvent({ padding: 'x'.repeat(256 * 1024) }));
    expect(failure(() => verifyWebhook(big.body, big.headers, { token: TOKEN })).reason).toBe(
      'body_too_large',
    );
    expect(failure(() => verifyWebhook(Buffer.from(big.body), big.headers, { token: TOKEN })).reason).toBe(
      'body_too_large',
    );
    const small = delivery();
    const capped = () => verifyWebhook(small.body, small.headers, { token: TOKEN, maxBodyBytes: 100 });
    expect(failure(capped).reason).toBe('body_too_large');
    expect(verifyWebhook(big.body, big.headers, { token: TOKEN, maxBodyBytes: 1024 * 1024 }).top_ticket).toBe(
      'TCK-0001',
    );
  });

  it('unreadable bodies → malformed_body', () => {
    const headers = { 'x-trx-signature': jsonSignature(TOKEN, 'T', 'R') };
    const bodies = ['', '{', '[]', 'null', '"text"', 'no-equals-sign', new Uint8Array([0xff, 0xfe, 0x00])];
    for (const body of bodies) {
      expect(failure(() => verifyWebhook(body, headers, { token: TOKEN })).reason).toBe('malformed_body');
    }
    expect(
      failure(() => verifyWebhook(JSON.stringify({ top_status: 'APPROVED' }), headers, { token: TOKEN }))
        .reason,
    ).toBe('malformed_body');
  });

  it('a correctly signed body that fails the schema → malformed_body naming the field, not its value', () => {
    const { body, headers } = delivery(sampleEvent({ top_amount: 'ciento cincuenta', top_user: 'x' }));
    const error = failure(() => verifyWebhook(body, headers, { token: TOKEN }));
    expect(error.reason).toBe('malformed_body');
    expect(error.message).toContain('top_amount');
    expect(error.message).not.toContain('ciento');
  });

  it('no message, JSON form or inspect output carries the token or customer PII', async () => {
    const { inspect } = await import('node:util');
    const { body, headers } = delivery(sampleEvent({ top_amount: PII.legal_doc + 'x' }));
    const cases = [
      () => verifyWebhook(body, headers, { token: TOKEN }),
      () => verifyWebhook(body, headers, { token: 'wrong-token-123' }),
      () => verifyWebhook(body.replace('TCK', 'XXX'), headers, { token: TOKEN }),
      () => verifyWebhook(JSON.parse(body), headers, { token: TOKEN }),
      () => verifyWebhook(body, {}, { token: TOKEN }),
    ];
    for (const run of cases) {
      const error = failure(run);
      expect(leaksSecrets(error.message)).toBe(false);
      expect(leaksSecrets(JSON.stringify(error))).toBe(false);
      expect(leaksSecrets(inspect(error))).toBe(false);
    }
  });

  it('configuration mistakes are ConfigurationError, not verification failures', () => {
    const { body, headers } = delivery();
    expect(() => verifyWebhook(body, headers, { token: '' })).toThrow(ConfigurationError);
    expect(() => verifyWebhook(body, headers, { token: TOKEN, scheme: 'md5' as never })).toThrow(
      ConfigurationError,
    );
  });
});

describe('verifyWebhook: prototype pollution', () => {
  const payloads = [
    '{"top_status":"APPROVED","top_ticket":"T","top_reference":"R","__proto__":{"polluted":"yes"}}',
    '{"top_status":"APPROVED","top_ticket":"T","top_reference":"R","constructor":{"prototype":{"polluted":"yes"}}}',
    '{"top_status":"APPROVED","top_ticket":"T","top_reference":"R","top_user":{"__proto__":{"polluted":"yes"}}}',
    '{"top_status":"APPROVED","top_ticket":"T","top_reference":"R","top_user":{"constructor":{"prototype":{"polluted":"yes"}}}}',
  ];

  it('JSON __proto__ / constructor keys neither pollute Object.prototype nor reach the event', () => {
    const headers = { 'x-trx-signature': jsonSignature(TOKEN, 'T', 'R') };
    for (const body of payloads) {
      const event = verifyWebhook(body, headers, { token: TOKEN }) as Record<string, unknown>;
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getPrototypeOf(event)).toBe(Object.prototype);
      expect(Object.hasOwn(event, '__proto__')).toBe(false);
      expect(Object.hasOwn(event, 'constructor')).toBe(false);
      expect(event.polluted).toBeUndefined();
      expect((event.top_user as Record<string, unknown> | undefined)?.polluted).toBeUndefined();
    }
  });

  it('form-encoded __proto__ keys are dropped too', () => {
    const headers = {
      'content-type': 'application/x-www-form-urlencoded',
      'x-trx-signature': jsonSignature(TOKEN, 'T', 'R'),
    };
    const body =
      'top_status=APPROVED&top_ticket=T&top_reference=R&__proto__%5Bpolluted%5D=yes&top_user%5B__proto__%5D=yes&constructor=x' +
      '&top_card=%7B%22__proto__%22%3A%7B%22polluted%22%3A%22yes%22%7D%7D';
    const event = verifyWebhook(body, headers, { token: TOKEN }) as Record<string, unknown>;
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(event.polluted).toBeUndefined();
    expect(Object.hasOwn(event, 'constructor')).toBe(false);
    expect((event.top_card as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('detectWebhookScheme', () => {
  it('names the built-in scheme a captured delivery matches, or null', () => {
    const json = buildWebhookDelivery(sampleEvent() as never, { token: TOKEN });
    const concat = buildWebhookDelivery(sampleEvent() as never, { token: TOKEN, scheme: 'concat' });
    expect(detectWebhookScheme(json.body, json.headers, TOKEN)).toBe('json');
    expect(detectWebhookScheme(concat.body, concat.headers, TOKEN)).toBe('concat');
    expect(detectWebhookScheme(json.body, json.headers, 'wrong-token')).toBeNull();
    expect(detectWebhookScheme('garbage', {}, TOKEN)).toBeNull();
  });

  it('still names the scheme when the body fails the event schema', () => {
    const event = { top_ticket: 'T1', top_reference: 'R1' };
    const headers = { 'x-trx-signature': sha256(`${TOKEN}T1R1`) };
    expect(detectWebhookScheme(JSON.stringify(event), headers, TOKEN)).toBe('concat');
  });
});
