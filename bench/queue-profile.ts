/**
 * A CPU profile of one warm queue worker: `tsx bench/queue-profile.ts [system] [payouts]`, system
 * one of bench/queue.ts SYSTEMS by its index (0 anchor, 1 chunked anchor, 2 payinout itemsPerJob 1,
 * 3 payinout itemsPerJob 50; default 3), payouts default 5,000. The worker runs under
 * `--cpu-prof` against the bench simulator and a redis-server of its own, is warmed with 500
 * PayOuts, settles `payouts` more and exits; the profile is written to .bench-profiles/ and
 * summarised with bench/profile-summary.ts. Needs `npm run build` (the worker loads dist/).
 */

import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { startChild } from './child.js';
import { ITEMS_AT_ONCE, SYSTEMS } from './queue.js';
import { Fleet } from './queue-fleet.js';
import { payout } from './queue-items.js';

const spec = SYSTEMS[Number(process.argv[2] ?? 3)]!;
const count = Number(process.argv[3] ?? 5_000);
const dir = resolve('.bench-profiles', `${spec.name.replace(/\W+/g, '-')}-${Date.now()}`);
mkdirSync(dir, { recursive: true });

const sim = await startChild('./bulk-server.ts');
const creds = sim.extra as { username: string; password: string; token: string };
const run = randomUUID().slice(0, 8);
const env = {
  BENCH_USERNAME: creds.username,
  BENCH_PASSWORD: creds.password,
  BENCH_TOKEN: creds.token,
  BENCH_BASE_URL: `http://127.0.0.1:${sim.port}`,
  BENCH_PREFIX: `payinout-profile-${run}`,
  BENCH_ITEMS_AT_ONCE: String(ITEMS_AT_ONCE),
};
try {
  // fork() passes this process's execArgv (tsx's loader) on: the workers alone get the profiler
  // (--cpu-prof is refused in NODE_OPTIONS), the simulator was forked before.
  process.execArgv.push('--cpu-prof', `--cpu-prof-dir=${dir}`);
  const fleet = await Fleet.start(spec, 1, sim, env);
  const batch = (tag: string, n: number) => Array.from({ length: n }, (_, i) => payout(`${run}-${tag}`, i));
  await fleet.settle(batch('warm', 500));
  const cost = await fleet.round(batch('profiled', count));
  await fleet.stop();
  console.log(
    `${spec.name}: ${Math.round(cost.rate)} PayOuts/s, worker CPU ${cost.cpuMs.toFixed(3)} ms per PayOut`,
  );
  console.log(`profiles (written as the worker exits): ${dir}`);
} finally {
  await sim.stop();
}
