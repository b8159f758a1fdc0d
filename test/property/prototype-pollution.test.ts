/**
 * No prototype pollution from `__proto__` / `constructor.prototype` keys anywhere in an answer:
 * Object.prototype stays clean, results and error bodies keep plain prototypes. zod's looseObject
 * drops an own `__proto__` key instead of copying it (checked here through the client), and the
 * redacted bodies on errors keep it as inert data. 10,000 runs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answeringClient, METHODS } from './responses.js';

const RUNS = 10_000;

const EVIL = [
  ['__proto__', { polluted: 'yes' }],
  ['constructor', { prototype: { polluted: 'yes' } }],
  ['prototype', { polluted: 'yes' }],
] as const;

/** Every object node of a JSON value, the root included. */
function objectNodes(value: unknown, into: object[] = []): object[] {
  if (value !== null && typeof value === 'object') {
    into.push(value);
    for (const item of Object.values(value)) objectNodes(item, into);
  }
  return into;
}

/** The method's valid data (in an envelope), with evil keys defined as own data on chosen nodes. */
function poisoned(data: unknown, picks: Array<[number, number]>, status: number): string {
  const envelope = {
    code: status < 300 ? '01' : '00',
    status: status < 300 ? 'SUCCESS' : 'ERROR',
    message: '',
    data: structuredClone(data),
  };
  const nodes = objectNodes(envelope).filter((node) => !Array.isArray(node));
  for (const [node, evil] of picks) {
    const [key, value] = EVIL[evil % EVIL.length]!;
    Object.defineProperty(nodes[node % nodes.length]!, key, {
      value,
      enumerable: true,
      configurable: true,
      writable: true,
    });
  }
  return JSON.stringify(envelope);
}

/** Whether a value (result or error body) has a non-plain prototype or inherits `polluted`. */
function foreignPrototype(value: unknown, seen = new Set<object>()): string | undefined {
  if (value === null || typeof value !== 'object' || seen.has(value)) return undefined;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== Array.prototype && proto !== null) return 'foreign prototype';
  if ('polluted' in value && !Object.hasOwn(value, 'polluted')) return 'inherits polluted';
  for (const item of Object.values(value)) {
    const found = foreignPrototype(item, seen);
    if (found) return found;
  }
  return undefined;
}

describe('no prototype pollution through parsed bodies', () => {
  it(`${RUNS} poisoned answers across every method`, async () => {
    const { client, state } = answeringClient();
    const counts = { resolved: 0, rejected: 0 };
    const input = fc.record({
      method: fc.constantFrom(...METHODS),
      picks: fc.array(fc.tuple(fc.nat(), fc.nat()), { minLength: 1, maxLength: 4 }),
      status: fc.constantFrom(200, 200, 200, 400, 404, 422, 500),
    });
    await fc.assert(
      fc.asyncProperty(input, async ({ method, picks, status }) => {
        state.next = { status, body: poisoned(method.data, picks, status), headers: { 'retry-after': '0' } };
        state.lookups404 = method.create;
        let result: unknown;
        try {
          result = await method.call(client);
          counts.resolved++;
        } catch (error) {
          counts.rejected++;
          result = (error as { body?: unknown }).body;
        }
        const probe: Record<string, unknown> = {};
        if (probe.polluted !== undefined || Object.hasOwn(Object.prototype, 'polluted')) return false;
        return foreignPrototype(result) === undefined;
      }),
      { numRuns: RUNS },
    );
    expect(counts.resolved).toBeGreaterThan(100);
    expect(counts.rejected).toBeGreaterThan(100);
  }, 60_000);

  it('a top-level __proto__ in data is dropped from the result, not made its prototype', async () => {
    const { client, state } = answeringClient();
    state.next = {
      status: 200,
      body: '{"code":"01","status":"SUCCESS","data":{"currency":"COP","balance":1,"balance_formatted":"COP 1","__proto__":{"polluted":"yes","balance":999}}}',
      headers: {},
    };
    const balance = await client.merchant.getBalance();
    expect(Object.getPrototypeOf(balance)).toBe(Object.prototype);
    expect(balance.balance).toBe(1);
    expect((balance as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.hasOwn(balance, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
