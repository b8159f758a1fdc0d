/**
 * payinout's lock settings: for each lockDuration (stalledInterval half of it), what a held job
 * costs Redis while nothing else happens (BullMQ's lock extensions, payinout's lease renewals,
 * both workers' stalled-job checks) and how long after a SIGKILL another worker has settled it.
 * The simulator holds every create's answer (committed first), so the job stays in hand.
 */
import { type ChildServer, startChild } from './child.js';
import { Fleet } from './queue-fleet.js';
import { payout } from './queue-items.js';

export interface LockCost {
  lockMs: number;
  /** Redis commands per second, one chunk of CHUNK PayOuts held, two workers (one idle). */
  commandsPerSecond: number;
  /** SIGKILL of the worker holding the chunk → every PayOut of it settled by the other, s. */
  failoverSeconds: number;
}

const CHUNK = 8; // all of it in flight at once (ITEMS_AT_ONCE): every create is committed when the holder dies
/** Commands counted over this long: at least one of every timer at lockDuration 10 s (its ½ and ⅓). */
const WINDOW_MS = 5_000;

export async function lockCosts(env: Record<string, string>, locks: number[]): Promise<LockCost[]> {
  // In parallel (each on a simulator and a redis-server of its own): the failover time is timers.
  return Promise.all(locks.map((lockMs) => lockCost(env, lockMs)));
}

async function lockCost(env: Record<string, string>, lockMs: number): Promise<LockCost> {
  // Answers held past the window and the survivor's start, so the holder still holds them.
  const sim = await startChild('./bulk-server.ts', { BENCH_CREATE_DELAY_MS: String(WINDOW_MS + 6_000) });
  try {
    return await afterKill(
      sim,
      { ...env, BENCH_BASE_URL: `http://127.0.0.1:${sim.port}` },
      lockMs,
      WINDOW_MS,
    );
  } finally {
    await sim.stop();
  }
}

async function afterKill(sim: ChildServer, env: Record<string, string>, lockMs: number, windowMs: number) {
  const spec = { name: `lock-${lockMs}`, kind: 'payinout' as const, itemsPerJob: CHUNK, lockMs };
  const fleet = await Fleet.start(spec, 1, sim, env);
  try {
    const { done } = await fleet.begin(Array.from({ length: CHUNK }, (_, i) => payout(`lock-${lockMs}`, i)));
    while ((await fleet.active()) === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    await fleet.addWorker(); // the survivor, started once the first worker holds the chunk
    const c0 = await fleet.redis.commands();
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const c1 = await fleet.redis.commands();
    fleet.workers[0]!.child.kill('SIGKILL');
    const t0 = performance.now();
    await done;
    return {
      lockMs,
      commandsPerSecond: ((c1.calls - c0.calls) * 1000) / windowMs,
      failoverSeconds: (performance.now() - t0) / 1000,
    };
  } finally {
    await fleet.stop();
  }
}
