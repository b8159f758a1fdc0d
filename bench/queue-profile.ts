/**
 * Where a queue worker's CPU goes, one job per PayOut: `tsx bench/queue-profile.ts [n] [kinds…]`
 * (after `npm run build`). For each kind — `anchor` (bare BullMQ + node:http), `sdk` (bare BullMQ
 * calling client.transactions.get + client.payout.create) and `payinout` (createPayOutWorker) —
 * one warm worker process settles n PayOuts (default 5,000) twice on a redis-server of its own
 * against the bench simulator: once plain (CPU per PayOut), once under V8's CPU profiler, written
 * to /tmp/queue-<kind>.cpuprofile (summarise with bench/profile-summary.ts). Not part of `npm run bench`.
 */
import { randomUUID } from 'node:crypto';
import { startChild } from './child.js';
import { COMPARE_CONCURRENCY } from './queue.js';
import { Fleet, type SystemSpec } from './queue-fleet.js';
import { payout } from './queue-items.js';
import { fmt } from './stats.js';

const n = Number(process.argv[2] ?? 5_000);
const kinds = (
  process.argv.length > 3 ? process.argv.slice(3) : ['anchor', 'sdk', 'payinout']
) as SystemSpec['kind'][];
const batchOf = (run: string, count: number) => Array.from({ length: count }, (_, i) => payout(run, i));

const sim = await startChild('./bulk-server.ts');
const creds = sim.extra as { username: string; password: string; token: string };
const env = {
  BENCH_USERNAME: creds.username,
  BENCH_PASSWORD: creds.password,
  BENCH_TOKEN: creds.token,
  BENCH_BASE_URL: `http://127.0.0.1:${sim.port}`,
  BENCH_PREFIX: `payinout-profile-${randomUUID().slice(0, 8)}`,
};
console.log(
  '| system | PayOuts/s | Redis commands / PayOut | worker CPU ms / PayOut | profiled CPU ms / PayOut |',
);
console.log('|---|--:|--:|--:|--:|');
try {
  for (const kind of kinds) {
    const spec: SystemSpec = {
      name: `profile ${kind}`,
      kind,
      itemsPerJob: 1,
      concurrency: COMPARE_CONCURRENCY,
    };
    const fleet = await Fleet.start(spec, 1, sim, env);
    try {
      await fleet.settle(batchOf(`${kind}-warm`, 1_000));
      const plain = await fleet.round(batchOf(`${kind}-plain`, n));
      const child = fleet.workers[0]!.child;
      await profiled(child, 'start');
      const under = await fleet.round(batchOf(`${kind}-profiled`, n));
      await profiled(child, `/tmp/queue-${kind}.cpuprofile`);
      console.log(
        `| ${kind} | ${fmt(plain.rate)} | ${fmt(plain.commands, 1)} | ${fmt(plain.cpuMs, 3)} | ${fmt(under.cpuMs, 3)} |`,
      );
    } finally {
      await fleet.stop();
    }
  }
} finally {
  await sim.stop();
}

function profiled(child: import('node:child_process').ChildProcess, command: string): Promise<void> {
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
