/** GET/POST/DELETE {base_url}/_sandbox/faults: the dashboard's Host and origin rules, stats, scoping. */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { type SandboxServer, startSandboxServer } from '../../src/testing/index.js';
import { basic, payIn } from './helpers.js';

let server: SandboxServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const json = { 'content-type': 'application/json' };
const auth = { authorization: basic('demo-co', 'demo-co-pass'), 'token-top': 'demo-co-token', ...json };

describe('/_sandbox/faults on loopback', () => {
  it('adds, lists with counts, removes one and all', async () => {
    server = await startSandboxServer({ webhooks: false, seed: 1 });
    const url = `${server.url}/_sandbox/faults`;
    const added = await fetch(url, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({
        operation: 'payin.create',
        kind: 'status',
        status: 503,
        retryAfter: 1,
        times: 1,
      }),
    });
    expect(added.status).toBe(200);
    const rule = await added.json();
    expect(rule).toEqual({
      id: 'fault-1',
      operation: 'payin.create',
      kind: 'status',
      status: 503,
      retryAfter: 1,
      times: 1,
    });
    const first = await fetch(`${server.url}/api/v2/payin`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify(payIn()),
    });
    expect(first.status).toBe(503);
    expect(await fetch(url).then((r) => r.json())).toEqual([{ ...rule, matched: 1, fired: 1 }]);
    expect(server.sandbox.faults.stats()).toEqual([
      { id: 'fault-1', operation: 'payin.create', kind: 'status', matched: 1, fired: 1 },
    ]);
    await fetch(url, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: 'webhook', kind: 'drop' }),
    });
    const afterOne = await fetch(`${url}/fault-1`, { method: 'DELETE' });
    expect(afterOne.status).toBe(200);
    expect((await afterOne.json()).map((r: { id: string }) => r.id)).toEqual(['fault-2']);
    expect((await fetch(`${url}/fault-1`, { method: 'DELETE' })).status).toBe(404);
    const third = await fetch(url, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: '*', kind: 'drop-before-commit', rate: 0 }),
    }).then((r) => r.json());
    const byQuery = await fetch(`${url}?id=${third.id}`, { method: 'DELETE' }).then((r) => r.json());
    expect(byQuery.map((r: { id: string }) => r.id)).toEqual(['fault-2']);
    const byBody = await fetch(url, {
      method: 'DELETE',
      headers: json,
      body: JSON.stringify({ id: 'fault-2' }),
    });
    expect(await byBody.json()).toEqual([]);
    await fetch(url, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: 'webhook', kind: 'drop' }),
    });
    expect(await fetch(url, { method: 'DELETE' }).then((r) => r.json())).toEqual([]);
    expect(server.sandbox.faults.list()).toEqual([]);
  });

  it('refuses a bad rule with the closest valid word (422) and changes nothing', async () => {
    server = await startSandboxServer({
      webhooks: false,
      faults: [{ operation: '*', kind: 'delay', ms: 1 }],
    });
    const answer = await fetch(`${server.url}/_sandbox/faults`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ operation: 'transactions.gte', kind: 'status', status: 429 }),
    });
    expect(answer.status).toBe(422);
    expect((await answer.json()).message).toMatch(/did you mean transactions\.get\?/);
    expect(server.sandbox.faults.list()).toHaveLength(1);
  });

  it('refuses another origin, a POST not declared JSON, and a foreign Host', async () => {
    server = await startSandboxServer({ webhooks: false });
    const url = `${server.url}/_sandbox/faults`;
    const body = JSON.stringify({ operation: '*', kind: 'drop-before-commit' });
    const cross = await fetch(url, {
      method: 'POST',
      headers: { ...json, origin: 'http://evil.example' },
      body,
    });
    expect(cross.status).toBe(403);
    const site = await fetch(url, { method: 'DELETE', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(site.status).toBe(403);
    const form = await fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect(form.status).toBe(415);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        url,
        { method: 'GET', headers: { host: `evil.example:${server!.port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
    expect(server.sandbox.faults.list()).toEqual([]);
  });
});

describe('/_sandbox/faults reachable from the network', () => {
  it("asks for a merchant's login and scopes rules to that merchant", async () => {
    server = await startSandboxServer({
      host: '0.0.0.0',
      webhooks: false,
      merchants: [
        { username: 'shop-a', password: 'pass-a-123', token: 'tok-a-123', country: 'CO' },
        { username: 'shop-b', password: 'pass-b-123', token: 'tok-b-123', country: 'CO' },
      ],
    });
    const url = `${server.url.replace('0.0.0.0', '127.0.0.1')}/_sandbox/faults`;
    expect((await fetch(url)).status).toBe(401);
    const a = { authorization: basic('shop-a', 'pass-a-123'), ...json };
    const b = { authorization: basic('shop-b', 'pass-b-123'), ...json };
    const rule = JSON.stringify({ operation: '*', kind: 'status', status: 500 });
    const added = await fetch(url, { method: 'POST', headers: a, body: rule }).then((r) => r.json());
    expect(added.merchant).toBe('shop-a');
    expect(await fetch(url, { headers: b }).then((r) => r.json())).toEqual([]);
    expect((await fetch(`${url}/${added.id}`, { method: 'DELETE', headers: b })).status).toBe(404);
    const other = JSON.stringify({ operation: '*', kind: 'status', status: 500, merchant: 'shop-a' });
    expect((await fetch(url, { method: 'POST', headers: b, body: other })).status).toBe(404);
    expect(server.sandbox.faults.list()).toHaveLength(1);
  });
});
