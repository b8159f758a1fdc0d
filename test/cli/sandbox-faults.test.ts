/**
 * `payinout sandbox --seed --fault` and the sandbox terminal: the real CLI process, real HTTP.
 * A wrong SPEC exits 2 naming the wrong part; the startup lines list the rules; each request and
 * webhook attempt is one line (text or JSON), redacted; --quiet prints only the startup lines.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { basic, CUSTOMER_CO } from '../testing/helpers.js';
import { killAll, runCli, spawnCli } from './support.js';

afterEach(killAll);

describe('--fault SPEC refused: exit 2 naming the part that is wrong', () => {
  const cases: [string, RegExp][] = [
    ['payout.creat:drop-after-commit', /unknown 'payout.creat'; did you mean payout.create\?/],
    ['payout.create:drop-after-comit', /unknown 'drop-after-comit'; did you mean drop-after-commit\?/],
    ['*:status:status=503,rat=0.5', /unknown option 'rat'; did you mean rate\?/],
    ['*:status:status=503:rate=0.5', /stray part ':rate=0.5'/],
    ['*:status:status=503,0.5', /stray part '0.5'/],
    ['*:status:status=302', /status: must be a whole number from 400 to 599/],
    ['*:status:status=500,retryAfter=1', /retryAfter: only a status of 429 or 503/],
    ['*:delay:ms=-1', /ms: must be a whole number of milliseconds/],
    ['*:status:status=503,rate=2', /rate: must be a number from 0 to 1/],
    ['*:status:status=503,times=-2', /times: must be a whole number, 0 or more/],
    ['webhook:drop-after-commit', /'drop-after-commit' is an API fault/],
    ['payout.create', /is not OPERATION:KIND/],
  ];
  it.each(cases)('%s', async (spec, message) => {
    const { code, stderr, stdout } = await runCli(['sandbox', '--port', '0', '--fault', spec]);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
    expect(stdout).not.toMatch(/base_url=/);
  });
});

async function receiver() {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      bodies.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks?key=query-secret`;
  return { url, bodies, close: () => server.close() };
}

const auth = {
  authorization: basic('demo-co', 'demo-co-pass'),
  'token-top': 'demo-co-token',
  'content-type': 'application/json',
};

async function traffic(baseUrl: string, ipn: string) {
  const payin = { amount: 50_000, currency: 'COP', country: 'CO', payment_method: 'BREB', description: 'x' };
  const create = (reference: string) =>
    fetch(`${baseUrl}/api/v2/payin`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ ...payin, reference, customer_data: CUSTOMER_CO, ipn_url: ipn }),
    });
  await expect(create('term-1')).rejects.toThrow(); // dropped after commit
  await fetch(`${baseUrl}/api/v1/sandbox/payin/confirm`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ transaction_id: 'term-1', payment_method: 'BREB', status: 'APPROVED' }),
  });
}

async function until(check: () => boolean) {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 25));
}

describe('the sandbox terminal', () => {
  const args = ['sandbox', '--port', '0', '--seed', '7', '--fault', 'payin.create:drop-after-commit:times=1'];

  it('lists the rules at startup and prints one redacted line per request and webhook attempt', async () => {
    const hook = await receiver();
    const cli = spawnCli([...args, '--fault', 'webhook:duplicate']);
    const { baseUrl, stdout } = await cli.started;
    expect(stdout).toMatch(/^fault_seed=7$/m);
    expect(stdout).toMatch(/^fault=fault-1 payin\.create:drop-after-commit:times=1$/m);
    expect(stdout).toMatch(/^fault=fault-2 webhook:duplicate$/m);
    await traffic(baseUrl, hook.url);
    await until(() => /webhook APPROVED/.test(cli.output().stdout));
    hook.close();
    const out = cli.output().stdout;
    expect(out).toMatch(
      /POST payin\.create\s+demo-co\s+term-1\s+no answer\s+\d+ ms fault drop-after-commit \(fault-1\)/,
    );
    expect(out).toMatch(/POST sandbox\.confirmPayIn\s+demo-co\s+term-1\s+200\s+\d+ ms/);
    expect(out).toMatch(
      /webhook APPROVED\s+term-1\s+→ http:\/\/127\.0\.0\.1:\d+\/hooks\?key=… 200 \(duplicate: 200\) fault duplicate \(fault-2\)/,
    );
    expect(hook.bodies).toHaveLength(2);
    const lines = out.slice(out.indexOf('export PAYINOUT_ENVIRONMENT'));
    for (const secret of ['query-secret', 'demo-co-token', 'ana@example.com', '1020304050']) {
      expect(lines).not.toContain(secret);
    }
    expect(out).not.toContain('\u001b['); // not a TTY: no colour
  });

  it('--log json: one JSON object per line', async () => {
    const hook = await receiver();
    const cli = spawnCli([...args, '--log', 'json']);
    const { baseUrl } = await cli.started;
    await traffic(baseUrl, hook.url);
    await until(() => /"type":"webhook"/.test(cli.output().stdout));
    hook.close();
    const json = cli
      .output()
      .stdout.split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line));
    expect(json[0]).toMatchObject({
      type: 'request',
      method: 'POST',
      operation: 'payin.create',
      merchant: 'demo-co',
      reference: 'term-1',
      status: null,
      fault: { rule: 'fault-1', kind: 'drop-after-commit' },
    });
    expect(json.find((j) => j.type === 'webhook')).toMatchObject({
      event_status: 'APPROVED',
      reference: 'term-1',
      status: 200,
      next_retry: null,
    });
  });

  it('--quiet: only the startup lines', async () => {
    const hook = await receiver();
    const cli = spawnCli([...args, '--quiet']);
    const { baseUrl, stdout } = await cli.started;
    await traffic(baseUrl, hook.url);
    await until(() => hook.bodies.length > 0);
    await new Promise((r) => setTimeout(r, 100));
    hook.close();
    expect(cli.output().stdout).toBe(stdout);
  });
});
