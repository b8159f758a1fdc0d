/** Faults on API requests, through raw HTTP to a real server: what is committed, what is answered. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatFaultSpec, parseFaultSpec } from '../../src/testing/faults/spec.js';
import {
  createSandbox,
  FaultRuleError,
  type FaultRuleInput,
  type SandboxServer,
  startSandboxServer,
} from '../../src/testing/index.js';
import { basic, payIn, payOut } from './helpers.js';

const servers: SandboxServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(faults: FaultRuleInput[], seed = 1) {
  const server = await startSandboxServer({
    webhooks: false,
    seed,
    faults,
    merchants: [
      { username: 'm1', password: 'p1', token: 't1', country: 'CO', balance: 10_000_000 },
      { username: 'm2', password: 'p2', token: 't2', country: 'CO', balance: 10_000_000 },
    ],
  });
  servers.push(server);
  return server;
}

function headers(merchant = 'm1') {
  const n = merchant.slice(1);
  return {
    authorization: basic(merchant, `p${n}`),
    'token-top': `t${n}`,
    'content-type': 'application/json',
  };
}

const post = (server: SandboxServer, path: string, body: unknown, merchant = 'm1') =>
  fetch(`${server.url}${path}`, { method: 'POST', headers: headers(merchant), body: JSON.stringify(body) });
const lookup = (server: SandboxServer, id: string, merchant = 'm1') =>
  fetch(`${server.url}/api/v1/transaction/${encodeURIComponent(id)}`, { headers: headers(merchant) });

describe('API faults through HTTP', () => {
  it('drop-after-commit: the PayOut is made, the connection closes with no answer, the history says so', async () => {
    const server = await serve([{ operation: 'payout.create', kind: 'drop-after-commit' }]);
    const body = payOut();
    await expect(post(server, '/api/v1/payout', body)).rejects.toThrow();
    const found = await lookup(server, body.reference);
    expect(found.status).toBe(200);
    const tx = server.sandbox.getTransaction(body.reference)!;
    expect(tx.status).toBe('PENDING');
    expect(server.sandbox.faults.stats()).toEqual([
      expect.objectContaining({
        operation: 'payout.create',
        kind: 'drop-after-commit',
        matched: 1,
        fired: 1,
      }),
    ]);
    const detail = await fetch(`${server.dashboardUrl}api/transactions/${tx.ticket}`).then((r) => r.json());
    expect(detail.history.map((h: { message: string }) => h.message)).toContain(
      'payout.create: answer dropped after commit (fault-1)',
    );
  });

  it('drop-before-commit: no answer and nothing made', async () => {
    const server = await serve([{ operation: 'payin.create', kind: 'drop-before-commit' }]);
    const body = payIn();
    await expect(post(server, '/api/v2/payin', body)).rejects.toThrow();
    expect((await lookup(server, body.reference)).status).toBe(404);
    expect(server.sandbox.transactions.size).toBe(0);
  });

  it('status with retryAfter and times: the envelope and Retry-After, nothing done, then normal answers', async () => {
    const server = await serve([{ operation: '*', kind: 'status', status: 503, retryAfter: 2, times: 2 }]);
    for (let i = 0; i < 2; i++) {
      const answer = await post(server, '/api/v2/payin', payIn());
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('2');
      const json = await answer.json();
      expect(json).toMatchObject({ code: '00', status: 'ERROR', error: 'SERVICE_UNAVAILABLE' });
      expect(json.message).toMatch(/not processed/);
    }
    expect(server.sandbox.transactions.size).toBe(0);
    expect((await post(server, '/api/v2/payin', payIn())).status).toBe(200);
    expect(server.sandbox.faults.stats()[0]).toMatchObject({ matched: 3, fired: 2 });
  });

  it('delay: the request takes effect at once, the answer comes ms later', async () => {
    const server = await serve([{ operation: 'payin.create', kind: 'delay', ms: 400 }]);
    const body = payIn();
    const started = performance.now();
    const answer = post(server, '/api/v2/payin', body);
    await new Promise((r) => setTimeout(r, 150));
    expect(server.sandbox.getTransaction(body.reference)).toBeDefined();
    expect((await answer).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(390);
  });

  it('garbled-after-commit: a 200 whose body is not JSON, and the PayIn exists', async () => {
    const server = await serve([{ operation: 'payin.create', kind: 'garbled-after-commit' }]);
    const body = payIn();
    const answer = await post(server, '/api/v2/payin', body);
    expect(answer.status).toBe(200);
    const text = await answer.text();
    expect(() => JSON.parse(text)).toThrow();
    expect(server.sandbox.getTransaction(body.reference)).toBeDefined();
  });

  it('merchant narrows a rule to one merchant', async () => {
    const server = await serve([{ operation: 'payin.create', kind: 'status', status: 500, merchant: 'm2' }]);
    expect((await post(server, '/api/v2/payin', payIn(), 'm1')).status).toBe(200);
    expect((await post(server, '/api/v2/payin', payIn(), 'm2')).status).toBe(500);
    expect(server.sandbox.faults.stats()[0]).toMatchObject({ matched: 1, fired: 1 });
  });

  it('a rule added while a request is in flight applies only to requests arriving after it', async () => {
    const server = await serve([{ operation: 'payin.create', kind: 'delay', ms: 300 }]);
    const first = post(server, '/api/v2/payin', payIn());
    await new Promise((r) => setTimeout(r, 100));
    server.sandbox.faults.add({ operation: 'payin.create', kind: 'status', status: 503 });
    server.sandbox.faults.remove('fault-1');
    expect((await first).status).toBe(200);
    expect((await post(server, '/api/v2/payin', payIn())).status).toBe(503);
  });
});

describe('seeded draws', () => {
  const rules: FaultRuleInput[] = [{ operation: 'payin.create', kind: 'status', status: 503, rate: 0.3 }];
  const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token' };
  function faulted(seed: number, references: string[], replay?: ReturnType<typeof run>['log']) {
    return run(seed, references, replay).faulted;
  }
  function run(
    seed: number,
    references: string[],
    replay?: ReturnType<ReturnType<typeof createSandbox>['faults']['log']>,
  ) {
    const sandbox = createSandbox({
      webhooks: false,
      ...(replay ? { replayFaults: replay } : { seed, faults: rules }),
    });
    const faulted = new Set<string>();
    for (const reference of references) {
      const body = JSON.stringify(payIn({ reference }));
      const answer = sandbox.handle({ method: 'POST', path: '/api/v2/payin', headers: auth, body });
      if (answer.fault) faulted.add(reference);
    }
    return { faulted, log: sandbox.faults.log() };
  }
  const refs = Array.from({ length: 200 }, (_, i) => `seeded-${i}`);

  const positions = (seed: number, references: string[]) => {
    const hit = faulted(seed, references);
    return references.flatMap((reference, i) => (hit.has(reference) ? [i] : []));
  };

  it('the same seed and the same sequence of requests fire on the same requests', async () => {
    const a = faulted(7, refs);
    expect(a.size).toBeGreaterThan(30);
    expect(a.size).toBeLessThan(90);
    expect(faulted(7, refs)).toEqual(a);
    expect(faulted(8, refs)).not.toEqual(a);
    // References made unique per run (a timestamp in them): the n-th request still draws the same.
    const stamped = (run: number) => refs.map((r) => `${r}-${run}`);
    expect(positions(7, stamped(1))).toEqual(positions(7, stamped(2)));
    // Over HTTP, too: two servers, the same seed, the same requests one after another.
    const statuses = async () => {
      const server = await serve([{ operation: 'payin.create', kind: 'status', status: 503, rate: 0.5 }], 11);
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) seen.push((await post(server, '/api/v2/payin', payIn())).status);
      return seen;
    };
    const first = await statuses();
    expect(first).toContain(503);
    expect(first).toContain(200);
    expect(await statuses()).toEqual(first);
  });

  it("a run's log replays its faults on the same requests, in any order (under another seed too)", () => {
    const first = run(7, refs);
    const again = run(99, [...refs].reverse(), JSON.parse(JSON.stringify(first.log)));
    expect(again.faulted).toEqual(first.faulted);
    expect(first.log.fired).toHaveLength(first.faulted.size);
    expect(() => createSandbox({ seed: 1, replayFaults: first.log })).toThrow(/leave out seed and faults/);
  });
});

describe('bad rules are refused with the closest valid word, and nothing changes', () => {
  const cases: [unknown, RegExp][] = [
    [null, /a rule is an object, e\.g\./],
    [{ operation: '*' }, /kind: required, one of drop-after-commit/],
    [
      { operation: 'payout.creat', kind: 'status', status: 503 },
      /operation: unknown 'payout.creat'; did you mean payout.create\?/,
    ],
    [
      { operation: 'payout.create', kind: 'drop-after-comit' },
      /kind: unknown 'drop-after-comit'; did you mean drop-after-commit\?/,
    ],
    [{ operation: '*', kind: 'status', status: 503, rate: 1.5 }, /rate: must be a number from 0 to 1/],
    [{ operation: '*', kind: 'status', status: 503, times: -1 }, /times: must be a whole number, 0 or more/],
    [{ operation: '*', kind: 'delay', ms: -5 }, /ms: must be a whole number of milliseconds/],
    [{ operation: '*', kind: 'status', status: 302 }, /status: must be a whole number from 400 to 599/],
    [
      { operation: '*', kind: 'status', status: 500, retryAfter: 1 },
      /retryAfter: only a status of 429 or 503/,
    ],
    [{ operation: 'webhook', kind: 'drop-after-commit' }, /kind: 'drop-after-commit' is an API fault/],
    [{ operation: 'payin.create', kind: 'duplicate' }, /kind: 'duplicate' is a webhook fault/],
    [{ operation: '*', kind: 'status', status: 503, rat: 0.5 }, /rat: unknown field; did you mean rate\?/],
    [{ operation: '*', kind: 'status' }, /status: kind 'status' needs a status/],
  ];
  it.each(cases)('%j', (rule, message) => {
    const sandbox = createSandbox({ webhooks: false, faults: [{ operation: '*', kind: 'delay', ms: 1 }] });
    const before = sandbox.faults.list();
    const error = (() => {
      try {
        sandbox.faults.add(rule as FaultRuleInput);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(FaultRuleError);
    expect((error as Error).message).toMatch(message);
    expect(sandbox.faults.list()).toEqual(before);
    expect(() => createSandbox({ faults: [rule as FaultRuleInput] })).toThrow(FaultRuleError);
  });
});

describe('SPEC, the one-line form of the CLI and the dashboard', () => {
  it.each([
    'payout.create:drop-after-commit:rate=0.05',
    '*:status:status=503,rate=0.01',
    'transactions.get:status:status=429,retryAfter=1,times=3',
    'webhook:duplicate:rate=0.2',
    'payin.create:delay:ms=2000,merchant=demo-co',
  ])('%s reads as the rule the schema checks and is written back as given', (spec) => {
    const rule = parseFaultSpec(spec);
    expect(createSandbox({ webhooks: false, faults: [rule] }).faults.list()).toEqual([
      { ...rule, id: 'fault-1' },
    ]);
    expect(formatFaultSpec(rule)).toBe(spec);
  });
});

it('faults that are not a list are refused as such', () => {
  expect(() => createSandbox({ faults: { operation: '*' } as unknown as FaultRuleInput[] })).toThrow(
    /faults: must be a list of rules/,
  );
});
