/**
 * `Retry-After` is honoured only in RFC 9110's forms (delay-seconds of digits, an HTTP-date):
 * anything else falls back to the normal backoff, on both senders. Before, `-5`, `+5` and `1,2`
 * read through `Date.parse` as dates in 2001 — "retry now" — so a call retried within
 * milliseconds and a `createMany` of two items sent dozens of requests a second.
 */
import { describe, it } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { nextReference, payoutParams, settle } from './methods.js';
import { type QueuedFault, startFaultServer } from './server.js';

/** Neither delay-seconds nor an HTTP-date; each is something `Date.parse` or `Number` accepts. */
const INVALID = ['-5', '+5', '1,2', '1.5', '0x10', '1e3', 'Mon, 01 Jan 2001', '2001-01-01', 'tomorrow 5'];

const limited = (value: string, count: number, method?: 'POST'): QueuedFault[] =>
  Array.from({ length: count }, () => ({
    ...(method ? { method } : {}),
    fault: { kind: 'status', status: 429, headers: { 'retry-after': value } } as const,
  }));

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.concurrent('an invalid Retry-After falls back to the backoff', () => {
  for (const value of INVALID) {
    it(`a call answered 429 with Retry-After ${JSON.stringify(value)} does not retry at once`, async ({
      expect,
      onTestFinished,
    }) => {
      const server = await startFaultServer();
      onTestFinished(() => server.close());
      server.queue(...limited(value, 5));
      const started = performance.now();
      const call = settle(server.client({ maxRetries: 1 }).merchant.getBalance());
      await wait(200);
      // The backoff before the first retry is 375–500 ms; "retry now" would have sent both by now.
      expect(server.order()).toHaveLength(1);
      const { error } = await call;
      expect(error).toBeInstanceOf(RateLimitError);
      expect(server.order()).toHaveLength(2);
      expect(performance.now() - started).toBeGreaterThanOrEqual(350);
    });
  }

  it('a createMany of two items answered 429 with Retry-After "-5" paces its pauses', async ({
    expect,
    onTestFinished,
  }) => {
    const server = await startFaultServer();
    onTestFinished(() => server.close());
    server.queue(...limited('-5', 200, 'POST'));
    const stop = new AbortController();
    const items = [payoutParams(nextReference('ra')), payoutParams(nextReference('ra'))];
    const batch = server.client().payout.createMany(items, { signal: stop.signal });
    await wait(1_000);
    const seen = server.order().length;
    stop.abort();
    await batch;
    // Two POSTs, then one shared pause of 375–500 ms, then each item's lookup and resend, then a
    // pause of 750–1000 ms: at most 8 requests in the first second. 0.3 sent ~40.
    expect(seen).toBeGreaterThanOrEqual(2);
    expect(seen).toBeLessThanOrEqual(12);
  });
});

describe.concurrent('a valid Retry-After is honoured', () => {
  const forms: Array<[string, (at: Date) => string]> = [
    ['delay-seconds', () => '2'],
    ['an IMF-fixdate', (at) => at.toUTCString()],
    ['an rfc850-date', rfc850],
    ['an asctime-date', asctime],
  ];
  for (const [name, header] of forms) {
    it(`${name}: the retry waits until then, beyond the backoff`, async ({ expect, onTestFinished }) => {
      const server = await startFaultServer();
      onTestFinished(() => server.close());
      const at = new Date(Date.now() + 2_000);
      // An HTTP-date has whole seconds: the instant it names is 1–2 s away, past any backoff (≤ 500 ms).
      const due = name === 'delay-seconds' ? at.getTime() : Math.floor(at.getTime() / 1000) * 1000;
      server.queue(...limited(header(at), 1));
      const { error } = await settle(server.client({ maxRetries: 1 }).merchant.getBalance());
      expect(error).toBeUndefined();
      expect(server.order()).toHaveLength(2);
      expect(Date.now()).toBeGreaterThanOrEqual(due - 50);
    });
  }
});

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');
const clock = (d: Date) => `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

function rfc850(d: Date): string {
  const year = pad(d.getUTCFullYear() % 100);
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())}-${MONTHS[d.getUTCMonth()]}-${year} ${clock(d)} GMT`;
}

function asctime(d: Date): string {
  const day = String(d.getUTCDate()).padStart(2, ' ');
  return `${DAYS[d.getUTCDay()]!.slice(0, 3)} ${MONTHS[d.getUTCMonth()]} ${day} ${clock(d)} ${d.getUTCFullYear()}`;
}
