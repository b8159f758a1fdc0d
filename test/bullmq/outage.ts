/**
 * A Redis outage in the middle of a batch, for the suites that take Redis away under live
 * workers (redis-frozen.test.ts: SIGSTOP, then SIGCONT; redis-killed.test.ts: SIGKILL, then a
 * restart). It begins at the batch's 6th create — both workers hold jobs by then, and other
 * items are on their way — and ends `ms` later. Lookups reaching the service while Redis is away
 * take longer than the workers trust their leases (90 % of 2 s, worker-child.ts), so those
 * items' creates must not be sent by the worker that looked them up.
 */
import type { QueueServer } from './server.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface Outage {
  /** Date.now() when Redis was taken away (0: not yet). */
  began(): number;
  /** Date.now() when it was back (0: not yet). */
  ended(): number;
}

export function outageAtSixthCreate(
  server: QueueServer,
  { begin, end, ms }: { begin: () => void; end: () => void | Promise<void>; ms: number },
): Outage {
  let began = 0;
  let ended = 0;
  server.beforeLookup = () => (began && !ended ? sleep(2_500) : undefined);
  server.afterCommit = async () => {
    if (began || server.posted.size < 6) return;
    began = Date.now();
    begin();
    setTimeout(() => {
      void Promise.resolve(end()).then(() => {
        ended = Date.now();
      });
    }, ms);
  };
  return { began: () => began, ended: () => ended };
}
