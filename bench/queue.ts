/**
 * The queue (payinout/bullmq) beside "the anchor" (a bare BullMQ worker doing the same lookup +
 * create with plain node:http, one PayOut a job) and "the chunked anchor" (50 a job): worker
 * processes started and warmed once, interleaved rounds, each system on a redis-server of its own.
 * Then payinout's worker concurrency (what its default should be) and its lock settings
 * (failover after a SIGKILL against the commands a held job costs). Needs the redis-server binary.
 */
import { type ChildServer, startChild } from './child.js';
import { Fleet, type RoundCost, type SystemSpec, workerEnv } from './queue-fleet.js';
import { payout } from './queue-items.js';
import { lockCosts } from './queue-lock.js';
import { median } from './stats.js';

/** Jobs per worker in the side-by-side runs: the same for all four systems (0.3's figure). */
export const COMPARE_CONCURRENCY = 16;
/** PayOuts of a chunk in flight at once: payinout's (src/bullmq/worker.ts) and the chunked anchor's. */
export const ITEMS_AT_ONCE = 8;

export const SYSTEMS: readonly SystemSpec[] = [
  { name: 'anchor', kind: 'anchor', itemsPerJob: 1 },
  { name: 'chunked anchor', kind: 'anchor', itemsPerJob: 50 },
  { name: 'payinout itemsPerJob 1', kind: 'payinout', itemsPerJob: 1 },
  { name: 'payinout itemsPerJob 50', kind: 'payinout', itemsPerJob: 50 },
].map((s) => ({ ...s, kind: s.kind as SystemSpec['kind'], concurrency: COMPARE_CONCURRENCY }));

export interface QueueBenchOptions {
  /** Smaller run: fewer PayOuts, rounds and worker counts, one lock setting. */
  quick?: boolean;
}

export interface SystemRow extends RoundCost {
  system: string;
  workers: number;
  /**
   * Against the anchor, paired by round: the median of this system's round i ÷ the anchor's round
   * i (run back to back, so a load that comes and goes falls on both), for rate and worker CPU.
   */
  paired: { rate: number; cpuMs: number; cpuRange: [number, number] };
}

export interface WorkerFacts {
  system: string;
  startupMs: number;
  /** CPU over IDLE_MS with nothing to do, ms (median of the fleet's workers). */
  idleCpuMs: number;
  rssMb: number;
  maxRssMb: number;
}

export interface ConcurrencyRow extends RoundCost {
  itemsPerJob: number;
  concurrency: number;
  /** Requests the worker keeps in flight at the service: concurrency (× ITEMS_AT_ONCE for chunks). */
  inFlight: number;
}

export const IDLE_MS = 5_000;

/** Progress on stderr (stdout is the Markdown report). */
const trace = (what: string) => process.stderr.write(`queue bench: ${what}\n`);

const batchOf = (run: string, n: number) => Array.from({ length: n }, (_, i) => payout(run, i));

export async function benchQueue({ quick = false }: QueueBenchOptions = {}) {
  // Warm means warm: V8 optimises a worker's code only after thousands of PayOuts, and the SDK's
  // path is longer than the anchor's few lines, so a short warm-up (0.4: 200 PayOuts shared by
  // every worker, 50 each at 4 workers) measured payinout half-interpreted and 2.5-3.5x slower per
  // PayOut than warm (bench/queue-profile.ts). 1,500 each was still short at 4 workers on 2
  // cores: rounds after it fell from 0.36-0.40 to 0.25 ms a PayOut (anchor 0.25-0.27 to 0.18), and
  // the section read 1.53-1.54x where 5,000 each read 1.15-1.16x, steady from the first round
  // (WORKERS=4 bench/queue-profile.ts, 16:0x, 2026-11-27). A round long enough that its start and
  // tail are a small part of it; five, so a median is not one round's luck.
  const sizes = quick
    ? { items: 500, warm: 300, rounds: 2, workers: [1, 2], sweepItems: 500, locks: [2_000] }
    : {
        items: 3_000,
        warm: 5_000,
        rounds: 5,
        workers: [1, 2, 4],
        sweepItems: 3_000,
        locks: [10_000, 5_000, 2_000],
      };
  const sim = await startChild('./bulk-server.ts');
  const env = { ...workerEnv(sim, 'bench'), BENCH_ITEMS_AT_ONCE: String(ITEMS_AT_ONCE) };
  try {
    const rows: SystemRow[] = [];
    let workerFacts: WorkerFacts[] = [];
    for (const workers of sizes.workers) {
      const group = await compare(sim, env, workers, sizes);
      rows.push(...group.rows);
      if (workers === 1) workerFacts = group.facts;
    }
    const sweep = await concurrencySweep(sim, env, quick ? [4, 16, 64] : [4, 8, 16, 64], sizes);
    trace('lock settings: failover');
    const locks = await lockCosts(env, sizes.locks);
    return { rows, workerFacts, sweep, locks, sizes };
  } finally {
    await sim.stop();
  }
}

/** `warm`: PayOuts per worker process before the timed rounds. */
type Sizes = { items: number; warm: number; rounds: number; sweepItems: number };

/** The four systems at one worker count: started one fleet after another, warmed, interleaved. */
export async function compare(sim: ChildServer, env: Record<string, string>, workers: number, sizes: Sizes) {
  const fleets: Fleet[] = [];
  try {
    trace(`${workers} worker(s): starting the four systems`);
    for (const spec of SYSTEMS) fleets.push(await Fleet.start(spec, workers, sim, env));
    trace(`${workers} worker(s): warming up`);
    for (const [i, fleet] of fleets.entries())
      await fleet.settle(batchOf(`warm-w${workers}-${i}`, sizes.warm * workers));
    trace(`${workers} worker(s): rounds`);
    const costs = await interleaved(fleets, sizes.rounds, sizes.items, `w${workers}`);
    // Idle CPU once, with one worker per system (the same at any worker count), after the rounds:
    // 5 s idle between the warm-up and the rounds let V8 shrink each heap, and the 1-worker
    // rounds then climbed back (payinout's one-job rate 3,641 → 4,723/s over five rounds at 16:27,
    // the anchor flat), where the 2- and 4-worker rounds, never idled, did not.
    const idle = await Promise.all(fleets.map((f) => (workers === 1 ? f.idleCpu(IDLE_MS) : [0])));
    const rows = fleets.map((f, i) => ({
      system: f.spec.name,
      workers,
      ...medianCost(costs[i]!),
      paired: pairedRatios(costs[i]!, costs[0]!),
    }));
    const startup = fleets.map((f) => median(f.workers.map((w) => w.startupMs)));
    const last = await Promise.all(fleets.splice(0).map((f) => f.stop()));
    const facts = last.map((reports, i) => ({
      system: SYSTEMS[i]!.name,
      startupMs: startup[i]!,
      idleCpuMs: median(idle[i]!),
      rssMb: median(reports.map((r) => r.rssMb)),
      maxRssMb: Math.max(...reports.map((r) => r.maxRssMb)),
    }));
    return { rows, facts };
  } finally {
    await Promise.all(fleets.map((f) => f.stop()));
  }
}

/** Rounds A B C D, A B C D…: the machine's load falls on every system alike. */
async function interleaved(fleets: Fleet[], rounds: number, items: number, tag: string) {
  const costs: RoundCost[][] = fleets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, fleet] of fleets.entries()) {
      costs[i]!.push(await fleet.round(batchOf(`${tag}-${i}-r${round}`, items)));
      trace(`${tag} round ${round + 1}: ${fleet.spec.name} ${Math.round(costs[i]!.at(-1)!.rate)}/s`);
    }
  }
  return costs;
}

/** payinout's worker, 1 process, both modes, at each concurrency: where the rate stops growing. */
async function concurrencySweep(
  sim: ChildServer,
  env: Record<string, string>,
  levels: number[],
  sizes: Sizes,
) {
  const specs = levels.flatMap((concurrency) =>
    [1, 50].map((itemsPerJob) => ({
      name: `payinout c${concurrency} x${itemsPerJob}`,
      kind: 'payinout' as const,
      itemsPerJob,
      concurrency,
    })),
  );
  const fleets: Fleet[] = [];
  try {
    trace('concurrency sweep: starting');
    for (const spec of specs) fleets.push(await Fleet.start(spec, 1, sim, env));
    for (const [i, fleet] of fleets.entries()) await fleet.settle(batchOf(`warm-sweep-${i}`, sizes.warm));
    const costs = await interleaved(fleets, Math.min(2, sizes.rounds), sizes.sweepItems, 'sweep');
    return specs.map((spec, i) => ({
      itemsPerJob: spec.itemsPerJob,
      concurrency: spec.concurrency,
      inFlight: spec.concurrency * (spec.itemsPerJob > 1 ? ITEMS_AT_ONCE : 1),
      ...medianCost(costs[i]!),
    }));
  } finally {
    await Promise.all(fleets.splice(0).map((f) => f.stop()));
  }
}

/** The median, over rounds, of `runs[i]` ÷ `anchor[i]` (SYSTEMS[0] is the anchor). */
function pairedRatios(runs: RoundCost[], anchor: RoundCost[]): SystemRow['paired'] {
  const each = (pick: (c: RoundCost) => number) => runs.map((c, i) => pick(c) / pick(anchor[i]!));
  const cpu = each((c) => c.cpuMs);
  return {
    rate: median(each((c) => c.rate)),
    cpuMs: median(cpu),
    cpuRange: [Math.min(...cpu), Math.max(...cpu)],
  };
}

function medianCost(runs: RoundCost[]): RoundCost {
  const of = (pick: (c: RoundCost) => number) => median(runs.map(pick));
  return {
    rate: of((c) => c.rate),
    commands: of((c) => c.commands),
    scripts: of((c) => c.scripts),
    requests: of((c) => c.requests),
    cpuMs: of((c) => c.cpuMs),
    reads: of((c) => c.reads),
    writes: of((c) => c.writes),
  };
}
