/**
 * A fleet: the worker processes of one system measured by the queue bench (payinout's worker in
 * one mode, or the bare-BullMQ anchor), each fleet on a redis-server of its own, started and warmed
 * once and kept across rounds. A round enqueues a new batch and reads what it cost: wall time,
 * Redis commands (INFO commandstats), HTTP requests (counted by the simulator) and worker CPU.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import type * as QueueSdk from '../src/bullmq/index.js';
import type { ChildServer } from './child.js';
import type { WorkerReport } from './queue-child.js';
import { type OwnRedis, ownRedis } from './queue-redis.js';

export interface SystemSpec {
  name: string;
  /**
   * payinout's worker (dist/bullmq), the anchor (bare BullMQ + node:http), or bare BullMQ calling
   * the SDK (bench/queue-sdk-worker.ts: one PayOut a job, no payinout/bullmq).
   */
  kind: 'payinout' | 'anchor' | 'sdk';
  itemsPerJob: number;
  /** BullMQ concurrency (jobs per worker); undefined: payinout's default. */
  concurrency?: number;
  lockMs?: number;
  /** payinout's worker from another build's dist/ (default: this checkout's). */
  dist?: string;
  /** The sdk worker's calls: `many` settles each job's PayOut with `payout.createMany`. */
  variant?: string;
}

export interface RoundCost {
  rate: number;
  /** Per PayOut. */
  commands: number;
  scripts: number;
  requests: number;
  cpuMs: number;
  /** The workers' read and write system calls (sockets: Redis, the service, IPC). */
  reads: number;
  writes: number;
}

export interface FleetWorker {
  child: ChildProcess;
  /** fork() to 'ready' (connected to Redis), ms. */
  startupMs: number;
  report(): Promise<WorkerReport>;
}

type Payout = { reference: string } & Record<string, unknown>;

const ROUND = 500;

/**
 * What every worker process of a run is given: the bench simulator's merchant and address, and a
 * key prefix of the run's own (`payinout-<tag>-…`).
 */
export function workerEnv(sim: ChildServer, tag: string): Record<string, string> {
  const creds = sim.extra as { username: string; password: string; token: string };
  return {
    BENCH_USERNAME: creds.username,
    BENCH_PASSWORD: creds.password,
    BENCH_TOKEN: creds.token,
    BENCH_BASE_URL: `http://127.0.0.1:${sim.port}`,
    BENCH_PREFIX: `payinout-${tag}-${randomUUID().slice(0, 8)}`,
  };
}

export class Fleet {
  workers: FleetWorker[] = [];
  #settled = 0;
  #waiter: ((failure?: Error) => void) | undefined;
  #target = Number.POSITIVE_INFINITY;
  #queue!: Queue;

  private constructor(
    readonly spec: SystemSpec,
    readonly redis: OwnRedis,
    readonly sim: ChildServer,
    readonly env: Record<string, string>,
  ) {}

  static async start(spec: SystemSpec, count: number, sim: ChildServer, env: Record<string, string>) {
    const fleet = new Fleet(spec, await ownRedis(), sim, env);
    fleet.#queue = new Queue(queueName(spec), {
      connection: { url: fleet.redis.url },
      prefix: env.BENCH_PREFIX!,
    });
    fleet.workers = await Promise.all(Array.from({ length: count }, () => fleet.#fork()));
    return fleet;
  }

  /** Enqueues `batch` and resolves once every PayOut of it is settled (told by the workers). */
  async settle(batch: readonly Payout[]): Promise<void> {
    const { done } = await this.begin(batch);
    await done;
  }

  /** Enqueues `batch`; `done` settles when every PayOut of it is settled (wrapped: an awaited promise would wait for it). */
  async begin(batch: readonly Payout[]): Promise<{ done: Promise<void> }> {
    this.#settled = 0;
    this.#target = batch.length;
    const done = new Promise<void>((resolve, reject) => {
      this.#waiter = (failure) => (failure ? reject(failure) : resolve());
    });
    await this.#enqueue(batch);
    return { done };
  }

  /** Jobs some worker holds right now. */
  active(): Promise<number> {
    return this.#queue.getActiveCount();
  }

  async addWorker(): Promise<FleetWorker> {
    const worker = await this.#fork();
    this.workers.push(worker);
    return worker;
  }

  async round(batch: readonly Payout[]): Promise<RoundCost> {
    await Promise.all(this.workers.map((w) => w.report())); // marks each worker's CPU
    const [c0, r0] = [await this.redis.commands(), await requests(this.sim)];
    const t0 = performance.now();
    await this.settle(batch);
    const seconds = (performance.now() - t0) / 1000;
    const [c1, r1] = [await this.redis.commands(), await requests(this.sim)];
    const cpu = await Promise.all(this.workers.map((w) => w.report()));
    const n = batch.length;
    return {
      rate: n / seconds,
      commands: (c1.calls - c0.calls) / n,
      scripts: (c1.scripts - c0.scripts) / n,
      requests: (r1 - r0) / n,
      cpuMs: cpu.reduce((sum, r) => sum + r.cpuMs, 0) / n,
      reads: cpu.reduce((sum, r) => sum + r.reads, 0) / n,
      writes: cpu.reduce((sum, r) => sum + r.writes, 0) / n,
    };
  }

  /** Each worker's CPU over `ms` with nothing to do, ms. */
  async idleCpu(ms: number): Promise<number[]> {
    await Promise.all(this.workers.map((w) => w.report()));
    await new Promise((resolve) => setTimeout(resolve, ms));
    return (await Promise.all(this.workers.map((w) => w.report()))).map((r) => r.cpuMs);
  }

  /** Closes every worker (they finish their jobs); their last reports (memory). */
  async stop(): Promise<WorkerReport[]> {
    const alive = this.workers.filter((w) => w.child.exitCode === null && w.child.signalCode === null);
    const reports = await Promise.all(alive.map((w) => ask(w.child, 'exit')));
    await this.#queue.close();
    this.redis.stop();
    return reports;
  }

  async #enqueue(batch: readonly Payout[]): Promise<void> {
    const { spec } = this;
    if (spec.kind === 'payinout') {
      const bullmq = (await import(pathToFileURL('dist/bullmq/index.js').href)) as typeof QueueSdk;
      await bullmq.enqueuePayOuts(this.#queue, batch as never[], { itemsPerJob: spec.itemsPerJob });
      return;
    }
    // The anchor: BullMQ's addBulk, ROUND PayOuts per round trip as enqueuePayOuts does, job ids
    // from the references (so enqueueing again adds nothing twice, as payinout's ids do).
    for (let start = 0; start < batch.length; start += ROUND) {
      const part = batch.slice(start, start + ROUND);
      const jobs = [];
      for (let i = 0; i < part.length; i += spec.itemsPerJob) {
        const items = part.slice(i, i + spec.itemsPerJob);
        const data = spec.itemsPerJob === 1 ? items[0]! : items;
        jobs.push({ name: 'payout', data, opts: { jobId: items[0]!.reference } });
      }
      await this.#queue.addBulk(jobs);
    }
  }

  async #fork(): Promise<FleetWorker> {
    const { spec } = this;
    const file = WORKER_FILES[spec.kind];
    const t0 = performance.now();
    const child = fork(fileURLToPath(new URL(file, import.meta.url)), {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      env: {
        ...process.env,
        ...this.env,
        REDIS_URL: this.redis.url,
        BENCH_QUEUE: queueName(spec),
        ...(spec.concurrency ? { BENCH_CONCURRENCY: String(spec.concurrency) } : {}),
        ...(spec.lockMs ? { BENCH_LOCK_MS: String(spec.lockMs) } : {}),
        ...(spec.dist ? { BENCH_DIST: spec.dist } : {}),
        ...(spec.variant ? { BENCH_VARIANT: spec.variant } : {}),
      },
    });
    await new Promise((resolve, reject) => {
      child.once('message', resolve);
      child.once('exit', (code) => reject(new Error(`${spec.name} worker exited (${code})`)));
    });
    const startupMs = performance.now() - t0;
    child.on('message', (m: { settled?: number; failed?: string }) => {
      if (m.failed) this.#waiter?.(new Error(`${spec.name}: ${m.failed}`));
      if (m.settled === undefined) return;
      this.#settled += m.settled;
      if (this.#settled >= this.#target) this.#waiter?.();
    });
    return { child, startupMs, report: () => ask(child, 'cpu') };
  }
}

const WORKER_FILES = {
  payinout: './queue-worker.ts',
  anchor: './queue-anchor-worker.ts',
  sdk: './queue-sdk-worker.ts',
} as const;

const queueName = (spec: SystemSpec) => `bench-${spec.name.replace(/\W+/g, '-')}`;

/** Sends `message` to a worker and resolves with its next report. */
function ask(child: ChildProcess, message: string): Promise<WorkerReport> {
  return new Promise((resolve) => {
    const onMessage = (m: { report?: WorkerReport }) => {
      if (!m.report) return;
      child.off('message', onMessage);
      resolve(m.report);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

async function requests(sim: ChildServer): Promise<number> {
  return ((await sim.ask('requests')) as { requests: number }).requests;
}
