/**
 * Redaction keeps messages readable: a fragment of a credential or a common word of an e-mail is
 * not scrubbed by itself, and a redaction takes a whole word, never half of one — while the whole
 * secret and the customer's PII still never appear. Service echoes through msw.
 */
import { inspect } from 'node:util';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { ApiError, type PayInCreateParams } from '../../src/index.js';
import { customerCO, payinCO } from '../helpers/fixtures.js';
import { answer, CREDENTIALS, makeClient, useMsw } from '../helpers/msw.js';

useMsw();

function views(error: unknown): string {
  const e = error as Error & { body?: unknown; serviceMessage?: unknown };
  return [e.message, e.stack, JSON.stringify(e), inspect(e, { depth: 10 }), String(e.serviceMessage)].join(
    '\n',
  );
}

/** The CO PayIn of the fixtures for another customer. */
const payinFor = (customer: Partial<typeof customerCO>): PayInCreateParams => ({
  reference: 'order-1001',
  amount: 50_000,
  currency: 'COP',
  country: 'CO',
  payment_method: 'BREB',
  description: 'Order 1001',
  customer_data: { ...customerCO, ...customer },
});

async function refusedWith(message: string, payin: PayInCreateParams = payinCO): Promise<string> {
  answer('post', '/api/v2/payin', () =>
    HttpResponse.json({ code: '00', status: 'ERROR', message, detail: message }, { status: 422 }),
  );
  const error = await makeClient({ password: 'acme-live-pass', token: 'tok_9f8e7d6c5b4a' })
    .payin.create(payin)
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return views(error);
}

describe('a redaction takes whole words and only what identifies', () => {
  it('the whole password and token, even glued inside a longer word, go with that word', async () => {
    const text = await refusedWith('rejected xacme-live-passy and tok_9f8e7d6c5b4a_v2: bad password');
    expect(text).not.toMatch(/acme-live-pass|9f8e7d6c5b4a/i);
    expect(text).toContain('rejected [REDACTED] and [REDACTED]: bad password');
  });

  it('the scheme word of the Authorization value stays: "Basic" is not a secret, its credentials are', async () => {
    const basic = Buffer.from(`${CREDENTIALS.username}:acme-live-pass`).toString('base64');
    const text = await refusedWith(`HTTP Basic rejected: got Basic ${basic} (Basic auth)`);
    // The whole header value is a secret too: it goes as one.
    expect(text).toContain('HTTP Basic rejected: got [REDACTED] (Basic auth)');
    expect(text).not.toContain(basic);
  });

  it("fragments of a credential are not scrubbed by themselves: 'pass', 'live', 'acme'", async () => {
    const text = await refusedWith('Invalid password for the live account of acme.');
    expect(text).toContain('Invalid password for the live account of acme.');
  });

  it('a common word of an e-mail stays readable; its personal words and the address do not', async () => {
    const customer = {
      ...customerCO,
      email: 'info.ventas.rodriguez@example.com',
      full_name: 'Lucía Rodríguez',
    };
    const text = await refusedWith(
      'Send info to info.ventas.rodriguez@example.com; contact RODRIGUEZ at ventas',
      payinFor(customer),
    );
    expect(text).toContain('Send info to [REDACTED]; contact [REDACTED] at ventas');
    expect(text).not.toMatch(/rodr[ií]guez/i);
  });

  it('a surname inside a longer word takes the whole word, never leaves half of it', async () => {
    const customer = { ...customerCO, full_name: 'Ana Quintero' };
    const text = await refusedWith('beneficiario QUINTEROSAS rechazado; ana', payinFor(customer));
    expect(text).toContain('beneficiario [REDACTED] rechazado; ana');
    expect(text).not.toMatch(/quintero|SAS rechazado/i);
  });
});
