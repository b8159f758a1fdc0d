/**
 * Where a queue worker's CPU goes, one job per PayOut:
 * `tsx bench/queue-profile.ts [n] [rounds] [system…]` (after `npm run build`). A system is `anchor`
 * (bare BullMQ + node:http), `anchor*50` or `payinout*50` (50 PayOuts a job), `sdk` (bare BullMQ
 * calling client.transactions.get + client.payout.create), `sdk+many` (bare BullMQ calling
 * client.payout.createMany with the job's PayOut), `payinout` (createPayOutWorker), or `payinout=<dist dir>` (another
 * build's, for an A/B in one run). Each runs one warm worker process on a redis-server of its own
 * against the bench simulator, warmed with WARM PayOuts (default 1,000; 20,000 read the same
 * ratio at 12:05); `rounds` interleaved rounds of n PayOuts each (default 5,000 × 3)
 * give worker CPU per PayOut (min and median: the machine's load only adds); WORKERS=n runs n
 * worker processes per system (default 1, the only count that is profiled), then one more
 * round under V8's CPU profiler writes /tmp/queue-<system>.cpuprofile (summarise with
 * bench/profile-layers.ts, bench/profile-summary.ts or bench/profile-diff.ts) and its sampled
 * allocations /tmp/queue-<system>.heapprofile (bench/heap-summary.ts). Not part of `npm run bench`.
 */
import type { ChildProcess } from 'node:child_process';
import { startChild } from './child.js';
import { COMPARE_CONCURRENCY } from './queue.js';
import { Fleet, type SystemSpec, workerEnv } from './queue-fleet.js';
import { payout } from './queue-items.js';
import { fmt, median } from './stats.js';

const n = Number(process.argv[2] ?? 5_000);
const rounds = Number(process.argv[3] ?? 3);
const names = process.argv.length > 4 ? process.argv.slice(4) : ['anchor', 'sdk', 'payinout'];
const batchOf = (run: string, count: number) => Array.from({ length: count }, (_, i) => payout(run, i));
const fileOf = (name: string) => `/tmp/queue-${name.replace(/\W+/g, '-')}.cpuprofile`;

function specOf(name: string): SystemSpec {
  const [system, dist] = name.split('=') as [string, string | undefined];
  const [head, variant] = system.split('+') as [string, string | undefined];
  const [kind, items] = head.split('*') as [SystemSpec['kind'], string | undefined];
  return {
    name: `profile ${name}`,
    kind,
    itemsPerJob: Number(items ?? 1),
    concurrency: COMPARE_CONCURRENCY,
    ...(dist ? { dist } : {}),
    ...(variant ? { variant } : {}),
  };
}

const sim = await startChild('./bulk-server.ts');
const env = workerEnv(sim, 'profile');
const fleets: Fleet[] = [];
try {
  const workers = Number(process.env.WORKERS ?? 1);
  for (const name of names) fleets.push(await Fleet.start(specOf(name), workers, sim, env));
  const warm = Number(process.env.WARM ?? 1_000);
  for (const [i, fleet] of fleets.entries()) await fleet.settle(batchOf(`warm-${i}`, warm));
  const cpu: number[][] = fleets.map(() => []);
  const commands: number[][] = fleets.map(() => []);
  const scripts: number[][] = fleets.map(() => []);
  const rates: number[][] = fleets.map(() => []);
  const syscalls: number[][][] = fleets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, fleet] of fleets.entries()) {
      const cost = await fleet.round(batchOf(`r${round}-${i}`, n));
      cpu[i]!.push(cost.cpuMs);
      commands[i]!.push(cost.commands);
      scripts[i]!.push(cost.scripts);
      rates[i]!.push(cost.rate);
      syscalls[i]!.push([cost.reads, cost.writes]);
    }
  }
  for (const [i, fleet] of fleets.entries()) {
    if (workers > 1) break;
    const child = fleet.workers[0]!.child;
    await profiled(child, 'start');
    await fleet.round(batchOf(`profiled-${i}`, n));
    await profiled(child, fileOf(names[i]!));
  }
  console.log(
    `| system | worker CPU ms / PayOut, min | median | rounds | Redis commands / PayOut | scripts / PayOut | PayOuts/s, median | worker reads + writes / PayOut |`,
  );
  console.log('|---|--:|--:|---|--:|--:|--:|--:|');
  for (const [i, name] of names.entries()) {
    const each = cpu[i]!.map((c) => fmt(c, 3)).join(', ');
    const calls = (k: 0 | 1) => fmt(median(syscalls[i]!.map((c) => c[k]!)), 2);
    console.log(
      `| ${name} | ${fmt(Math.min(...cpu[i]!), 3)} | ${fmt(median(cpu[i]!), 3)} | ${each} | ${fmt(median(commands[i]!), 1)} | ${fmt(median(scripts[i]!), 2)} | ${fmt(median(rates[i]!), 0)} | ${calls(0)} + ${calls(1)} |`,
    );
  }
} finally {
  await Promise.all(fleets.map((f) => f.stop()));
  await sim.stop();
}

/** Tells a worker to start its profiler, or to stop it and write the profile to `command`. */
function profiled(child: ChildProcess, command: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: { profiled?: string }) => {
      if (m.profiled !== command) return;
      child.off('message', onMessage);
      resolve();
    };
    child.on('message', onMessage);
    child.send({ profile: command });
  });
}
