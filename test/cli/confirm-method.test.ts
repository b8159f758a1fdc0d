/**
 * `payinout confirm REF STATUS` without `--method`: the command looks the transaction up and
 * confirms with the transaction's own method (a CARD PayIn is refused with what the sandbox
 * supports for CARD, not with a wrong guess's error); when the lookup shows no method it tries the
 * supported ones and, if none was the transaction's, says so instead of showing the last refusal.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentClient } from '../../src/index.js';
import { CUSTOMER_CO } from '../testing/helpers.js';
import { killAll, runCli, type Started, spawnCli } from './support.js';

let sandbox: Started;
let client: PaymentClient;
let proxy: Server;
let proxyUrl: string;

beforeAll(async () => {
  sandbox = await spawnCli(['sandbox', '--port', '0']).started;
  client = PaymentClient.fromEnv(sandbox.env);
  // A service whose lookup answer does not show payment_method (the guide's field list).
  proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const upstream = await fetch(`${sandbox.baseUrl}${req.url}`, {
      method: req.method!,
      headers: Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host')) as Record<
        string,
        string
      >,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const body = (await upstream.json()) as { data?: Record<string, unknown> };
    if (req.url!.startsWith('/api/v1/transaction/') && body.data) delete body.data.payment_method;
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  killAll();
  await new Promise((ok) => proxy.close(ok));
});

async function payIn(reference: string, payment_method: 'CARD' | 'EFECTY' | 'BREB') {
  await client.payin.create({
    reference,
    amount: 150_000,
    currency: 'COP',
    country: 'CO',
    payment_method,
    description: 'confirm without --method',
    customer_data: CUSTOMER_CO,
  });
}

const ref = (name: string) => `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;

describe('payinout confirm without --method', () => {
  it("uses the transaction's own method: EFECTY is confirmed as EFECTY", async () => {
    const reference = ref('efecty');
    await payIn(reference, 'EFECTY');
    const run = await runCli(['confirm', reference, 'APPROVED'], sandbox.env);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(new RegExp(`^${reference} \\(ticket [\\w-]+, PayIn EFECTY\\) → APPROVED\\n$`));
    expect(run.code).toBe(0);
  }, 30_000);

  it('a CARD PayIn: names CARD and why sandbox confirm cannot drive it; nothing sent, still PENDING', async () => {
    const reference = ref('card');
    await payIn(reference, 'CARD');
    const run = await runCli(['confirm', reference, 'APPROVED'], sandbox.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(
      /CARD cannot be driven by sandbox confirm: the result of a sandbox CARD payment is fixed/,
    );
    expect(run.stderr).not.toMatch(/EFECTY|BREB/);
    expect((await client.transactions.get(reference)).status).not.toMatch(/APPROVED|REJECTED|EXPIRED/);
  }, 30_000);

  it('an unsupported status for its own method: what the sandbox supports for it', async () => {
    const reference = ref('efecty-expired');
    await payIn(reference, 'EFECTY');
    const run = await runCli(['confirm', reference, 'EXPIRED'], sandbox.env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/EFECTY PayIn supports APPROVED in sandbox confirm, not EXPIRED/);
  }, 30_000);

  describe('a lookup that shows no payment_method', () => {
    it('tries the supported methods and confirms with the one that is the transaction’s', async () => {
      const reference = ref('breb-guess');
      await payIn(reference, 'EFECTY');
      const run = await runCli(['confirm', reference, 'APPROVED'], {
        ...sandbox.env,
        PAYINOUT_BASE_URL: proxyUrl,
      });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain('PayIn EFECTY) → APPROVED');
    }, 30_000);

    it('none was its method: says so (nothing changed) and asks for --method, not the last guess’s error', async () => {
      const reference = ref('card-guess');
      await payIn(reference, 'CARD');
      const run = await runCli(['confirm', reference, 'APPROVED'], {
        ...sandbox.env,
        PAYINOUT_BASE_URL: proxyUrl,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        /was not confirmed \(nothing changed\): its lookup does not show its payment_method, and it was created with none of BREB, BREB_QR, EFECTY/,
      );
      expect(run.stderr).toMatch(
        /If it is CARD, PSE, NEQUI_PUSH, sandbox confirm cannot drive it\. Otherwise pass --method METHOD/,
      );
      expect(run.stderr).not.toMatch(/created with CARD, not/);
    }, 30_000);
  });
});
