/**
 * A batch lane's last check before a create's bytes leave (core/types.ts Lane.beforeWrite: how a
 * queue worker makes sure it still holds the reference), counted at the HTTP boundary on both
 * senders: it runs at every send of a create, resends included, never for a lookup, and what it
 * throws is the call's error with nothing of that request sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LANE, type Lane } from '../../src/core/types.js';
import { type BulkServer, payout, startBulkServer } from './server.js';

let server: BulkServer;
beforeEach(async () => {
  server = await startBulkServer();
});
afterEach(() => server.close());

class Refused extends Error {}

/** A lane whose check lets `allowed` sends through, then refuses; `checks` counts its calls. */
function laneAllowing(allowed: number): Lane & { checks: number } {
  const lane = {
    checks: 0,
    pause: { pauseUntil: () => undefined, ready: async () => undefined },
    maxPauses: 0,
    stopped: () => false,
    beforeWrite: () => {
      lane.checks += 1;
      if (lane.checks > allowed) throw new Refused('the lease ran out');
    },
  };
  return lane;
}

const posts = () => server.log.filter((line) => line.startsWith('POST'));

for (const sender of ['node:http', 'fetch'] as const) {
  const client = () => server.client(sender === 'fetch' ? { fetch: globalThis.fetch } : {});

  describe(`beforeWrite on ${sender}`, () => {
    it('refusing the first send: the call fails with what it threw, and no POST reached the server', async () => {
      const lane = laneAllowing(0);
      const error = await client()
        .payout.create(payout(1), { [LANE]: lane } as object)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Refused);
      expect(lane.checks).toBe(1);
      expect(posts()).toEqual([]);
    });

    it('runs again before a resend: a create lost before the service got it is looked up, and the resend is refused', async () => {
      server.inject({ method: 'POST', reference: 'bulk-1', fault: { kind: 'drop' } });
      const lane = laneAllowing(1);
      const error = await client()
        .payout.create(payout(1), { maxRetries: 2, [LANE]: lane } as object)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Refused);
      expect(lane.checks).toBe(2);
      expect(server.log).toEqual(['POST bulk-1', 'GET bulk-1']);
    });

    it('lets an allowed create through once, and is never asked for a lookup', async () => {
      const lane = laneAllowing(1);
      const created = await client().payout.create(payout(1), { [LANE]: lane } as object);
      expect(created.ticket).toBeTruthy();
      await client().transactions.get('bulk-1', { [LANE]: lane } as object);
      expect(lane.checks).toBe(1);
      expect(server.log).toEqual(['POST bulk-1', 'GET bulk-1']);
    });
  });
}
