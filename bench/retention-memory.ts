/**
 * `maxTransactions` keeps the simulator's memory flat: a child process (built dist/testing,
 * --expose-gc) creates and confirms `total` PayIns through the request core with a limit of
 * `max`, and reports its RSS and heap after a full GC every `step` creates. Not timed.
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Testing from '../src/testing/index.js';
import { seedTransactions } from './simulator-seed.js';

export interface MemoryPoint {
  created: number;
  kept: number;
  dropped: number;
  rssMb: number;
  heapMb: number;
  seconds: number;
}

/** Runs the child; resolves with one point per step. */
export function benchRetentionMemory({ total = 1_000_000, max = 100_000, step = 100_000 } = {}) {
  const child = fork(fileURLToPath(import.meta.url), ['child'], {
    execArgv: [...process.execArgv, '--expose-gc'],
    env: { ...process.env, TOTAL: String(total), MAX: String(max), STEP: String(step) },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const points: MemoryPoint[] = [];
  child.on('message', (point) => points.push(point as MemoryPoint));
  return new Promise<MemoryPoint[]>((resolve, reject) => {
    child.once('exit', (code) =>
      code === 0 ? resolve(points) : reject(new Error(`retention child exited ${code}`)),
    );
  });
}

async function runChild(): Promise<void> {
  const testing = (await import(pathToFileURL('dist/testing/index.js').href)) as typeof Testing;
  const [total, max, step] = ['TOTAL', 'MAX', 'STEP'].map((k) => Number(process.env[k])) as [
    number,
    number,
    number,
  ];
  const sandbox = testing.createSandbox({ webhooks: false, maxTransactions: max });
  const gc = (globalThis as { gc?: () => void }).gc!;
  const started = performance.now();
  for (let created = 0; created < total; created += step) {
    // No pending ones (those are never dropped): every PayIn is confirmed.
    seedTransactions(sandbox, step, { from: created, pendingEvery: Number.POSITIVE_INFINITY });
    gc();
    const { rss, heapUsed } = process.memoryUsage();
    process.send?.({
      created: created + step,
      kept: sandbox.transactions.size,
      dropped: sandbox.droppedTransactions,
      rssMb: rss / 1_048_576,
      heapMb: heapUsed / 1_048_576,
      seconds: (performance.now() - started) / 1000,
    } satisfies MemoryPoint);
  }
  sandbox.close();
  process.disconnect?.();
}

if (process.argv[2] === 'child') await runChild();
