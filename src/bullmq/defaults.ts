/**
 * The worker's defaults, chosen by `npm run bench -- queue` (docs/performance.md, "Queue"), in
 * a module of their own so the CLI can show them without loading BullMQ.
 */

/**
 * Jobs a worker settles at once. In the bench's sweep (1 worker, 2 cores shared), with chunks of
 * 50 (the default mode, 8 PayOuts of a chunk at a time) 4 jobs — 32 requests in flight — reached
 * ~94 % of the best rate, 8 added ~6 % for twice the requests in flight, and 16 or 64 added
 * nothing: more only piles requests on the service. One job per PayOut is faster at 8.
 */
export const DEFAULT_WORKER_CONCURRENCY = 4;

/**
 * BullMQ lock settings. A killed worker's jobs move on after between ½ and 1 × lockDuration plus
 * stalledInterval: the bench measured 10.1 s (10 s lock) / 5.1 s (5 s) / 3.1 s (2 s) from SIGKILL
 * to settled, against 8.6 / 19.2 / 45.2 Redis commands a second spent keeping a held chunk's
 * locks and leases and checking for stalled jobs (two workers). 5 s halves 0.3's failover for
 * about ten commands a second per worker holding work; 2 s would cost 2.5 times that again for
 * two seconds less, and leaves less room for a worker frozen by GC or a VM migration.
 */
export const DEFAULT_WORKER_LOCKS = { lockDuration: 5_000, stalledInterval: 2_500, maxStalledCount: 5 };
