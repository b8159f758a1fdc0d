/** The queue section of `npm run bench`, as Markdown, with the issue-26 ratios checked. */
import type { benchQueue, SystemRow } from './queue.js';
import { COMPARE_CONCURRENCY, IDLE_MS, ITEMS_AT_ONCE } from './queue.js';
import { fmt } from './stats.js';

type QueueResult = Awaited<ReturnType<typeof benchQueue>>;

const times = (value: number) => `${fmt(value, 2)}×`;
const ratio = (mine: number, anchor: number) => times(mine / anchor);

export function printQueue(result: QueueResult): void {
  const { rows, sizes } = result;
  console.log(
    `## Queue (payinout/bullmq) beside the bare-BullMQ anchor (${fmt(sizes.items)} PayOuts a round, ${sizes.rounds} interleaved rounds, medians; concurrency ${COMPARE_CONCURRENCY} jobs per worker for all four, ${ITEMS_AT_ONCE} PayOuts of a chunk at a time)\n`,
  );
  console.log(
    '| workers | system | PayOuts/s | ÷ anchor | Redis commands / PayOut | ÷ anchor | scripts / PayOut | HTTP requests / PayOut | worker CPU ms / PayOut | ÷ anchor | worker reads + writes / PayOut |\n|--:|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
  );
  for (const row of rows) {
    const anchor = anchorOf(rows, row.workers);
    console.log(
      `| ${row.workers} | ${row.system} | ${fmt(row.rate)} | ${times(row.paired.rate)} | ${fmt(row.commands, 1)} | ${ratio(row.commands, anchor.commands)} | ${fmt(row.scripts, 2)} | ${fmt(row.requests, 2)} | ${fmt(row.cpuMs, 3)} | ${times(row.paired.cpuMs)} | ${fmt(row.reads, 2)} + ${fmt(row.writes, 2)} |`,
    );
  }
  console.log(
    `\nWorker processes started and warmed (${fmt(sizes.warm)} PayOuts per worker process) before the timed rounds and kept across them; each system on a redis-server of its own (INFO commandstats deltas, Lua's inner commands counted, the enqueue included). Progress reaches the bench over IPC from the workers, so no progress poll of the bench's is in the counts. PayOuts/s and worker CPU ÷ anchor are paired by round: the median of each round's ratio to the anchor's round run just before it, so a load that comes and goes on the machine falls on both. HTTP requests counted by the simulator; worker CPU is process.cpuUsage of all workers over the round; reads and writes are their read and write system calls (/proc/self/io: Redis, the service and the bench's IPC), what a round trip costs a worker beyond its JavaScript.\n`,
  );
  printTargets(rows);
  printWorkers(result);
  printSweep(result);
  printLocks(result);
}

function anchorOf(rows: readonly SystemRow[], workers: number, system = 'anchor'): SystemRow {
  return rows.find((r) => r.workers === workers && r.system === system)!;
}

function printTargets(rows: readonly SystemRow[]): void {
  console.log('Issue 26 targets in this run:\n');
  const verdict = (ok: boolean) => (ok ? 'met' : '**not met**');
  for (const workers of new Set(rows.map((r) => r.workers))) {
    const anchor = anchorOf(rows, workers);
    const one = anchorOf(rows, workers, 'payinout itemsPerJob 1');
    const chunk = anchorOf(rows, workers, 'payinout itemsPerJob 50');
    const lines = [
      `one job per PayOut, Redis commands ≤ 1.3× the anchor: ${ratio(one.commands, anchor.commands)} — ${verdict(one.commands <= 1.3 * anchor.commands)}`,
      `one job per PayOut, worker CPU ≤ 1.3× the anchor: ${times(one.paired.cpuMs)} (rounds ${fmt(one.paired.cpuRange[0], 2)}–${fmt(one.paired.cpuRange[1], 2)}) — ${verdict(one.paired.cpuMs <= 1.3)}`,
      `chunks, ≤ 4 Redis commands executed per PayOut: ${fmt(chunk.commands, 1)} — ${verdict(chunk.commands <= 4)}`,
    ];
    if (workers >= 2) {
      lines.push(
        `chunks, PayOuts/s ≥ 1.2× the anchor: ${times(chunk.paired.rate)} — ${verdict(chunk.paired.rate >= 1.2)}`,
      );
    }
    console.log(`- ${workers} worker${workers > 1 ? 's' : ''}: ${lines.join('; ')}`);
  }
  console.log(
    "\n(The issue's ≤ 0.2 commands *sent* per PayOut in chunks is not measured here: commandstats count Lua's inner commands with the rest.)\n",
  );
}

function printWorkers({ workerFacts }: QueueResult): void {
  console.log(
    `| one worker process | start-up to ready ms | idle CPU over ${IDLE_MS / 1000} s, ms | RSS after the rounds MB | peak RSS MB |\n|---|--:|--:|--:|--:|`,
  );
  for (const f of workerFacts) {
    console.log(
      `| ${f.system} | ${fmt(f.startupMs)} | ${fmt(f.idleCpuMs, 1)} | ${fmt(f.rssMb)} | ${fmt(f.maxRssMb)} |`,
    );
  }
  console.log(
    '\nStart-up: fork() to connected and ready, forked under tsx (the bench loader, as every bench child), 1-worker fleets started one after another. Idle: after the timed rounds, nothing enqueued.\n',
  );
}

function printSweep({ sweep, sizes }: QueueResult): void {
  console.log(
    `### payinout's worker concurrency (1 worker process, ${fmt(sizes.sweepItems)} PayOuts a round, interleaved, medians)\n`,
  );
  console.log(
    '| itemsPerJob | concurrency | requests in flight at the service | PayOuts/s | Redis commands / PayOut | worker CPU ms / PayOut |\n|--:|--:|--:|--:|--:|--:|',
  );
  for (const s of sweep) {
    console.log(
      `| ${s.itemsPerJob} | ${s.concurrency} | ${s.inFlight} | ${fmt(s.rate)} | ${fmt(s.commands, 1)} | ${fmt(s.cpuMs, 3)} |`,
    );
  }
  console.log('');
}

function printLocks({ locks }: QueueResult): void {
  console.log(
    '| lockDuration (stalledInterval ½) | Redis commands/s while a chunk is held (2 workers) | SIGKILL of its worker → settled by the other |\n|--:|--:|--:|',
  );
  for (const l of locks) {
    console.log(
      `| ${fmt(l.lockMs / 1000)} s | ${fmt(l.commandsPerSecond, 1)} | ${fmt(l.failoverSeconds, 1)} s |`,
    );
  }
  console.log('');
}
