/**
 * The worker's defaults, chosen by `npm run bench -- queue` (docs/performance.md, "Queue"), in
 * a module of their own so the CLI can show them without loading BullMQ.
 */

/**
 * Jobs a worker settles at once. In the bench's sweep (1 warm worker, 2 shared cores), with chunks
 * of 50 (the default mode, 8 PayOuts of a chunk at a time) 4 jobs — 32 requests in flight —
 * reached 97.5 % of the best rate (16 jobs); 64 jobs (512 in flight) were slower: more only piles
 * requests on the service. One job per PayOut gained 1.2-1.6x with 8 to 64; the guide says so.
 */
export const DEFAULT_WORKER_CONCURRENCY = 4;

/**
 * BullMQ lock settings. A killed worker's jobs move on after between ½ and 1 × lockDuration plus
 * stalledInterval: the bench measured 10.1–15.1 s (10 s lock) / 5.1 s (5 s) / 3.1 s (2 s) from
 * SIGKILL to settled, against 6.4 / 11.6 / 22.4 Redis commands a second (after the lease hash)
 * keeping a held chunk's locks and leases and checking for stalled jobs, two workers. 5 s cuts
 * 0.3's failover by half or more for ~5 commands a second more; 2 s would double that again for
 * two seconds less, and leave less room for a worker frozen by GC or a VM migration.
 */
export const DEFAULT_WORKER_LOCKS = { lockDuration: 5_000, stalledInterval: 2_500, maxStalledCount: 5 };
