/**
 * The IPC side of a queue bench worker process (payinout's or the bare-BullMQ anchor's): it tells
 * the bench how many PayOuts it settled (batched, so the telling costs little CPU), and answers
 * 'cpu' with the CPU spent since the last 'cpu' and its memory. The bench learns progress from
 * these messages, so no progress poll of the bench's own reaches Redis.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

interface ClosableWorker {
  close(): Promise<void>;
}

export interface WorkerReport {
  /** user + system CPU since the previous 'cpu' message (or since ready), ms. */
  cpuMs: number;
  /** read and write system calls since then (Linux's /proc/self/io; 0 elsewhere): sockets, mostly. */
  reads: number;
  writes: number;
  rssMb: number;
  maxRssMb: number;
}

/**
 * Call once the worker is ready; returns `settled(n)`, to call as PayOuts settle. A job that
 * failed is told at once (`failed`), so the bench stops rather than waiting for it forever.
 */
export function serveBench(worker: ClosableWorker): (n: number, failed?: string) => void {
  let mark = process.cpuUsage();
  let calls = syscalls();
  let unsent = 0;
  let flush: NodeJS.Timeout | undefined;
  const report = (): WorkerReport => {
    const cpu = process.cpuUsage(mark);
    mark = process.cpuUsage();
    const [before, now] = [calls, syscalls()];
    calls = now;
    return {
      cpuMs: (cpu.user + cpu.system) / 1000,
      reads: now.reads - before.reads,
      writes: now.writes - before.writes,
      rssMb: process.memoryUsage.rss() / 1048576,
      maxRssMb: process.resourceUsage().maxRSS / 1024,
    };
  };
  process.on('disconnect', () => process.exit(0)); // the bench died: do not linger
  process.on('message', async (message) => {
    if (message === 'cpu') process.send?.({ report: report() });
    if (typeof message === 'object' && message !== null && 'profile' in message)
      return void profile(String((message as { profile: string }).profile));
    if (message !== 'exit') return;
    await worker.close();
    process.send?.({ report: report() });
    process.exit(0);
  });
  process.send?.({ ready: true });
  return (n, failed) => {
    if (failed) return void process.send?.({ failed });
    unsent += n;
    if (flush) return;
    flush = setTimeout(() => {
      flush = undefined;
      process.send?.({ settled: unsent });
      unsent = 0;
    }, 10);
  };
}

/** This process's read and write system calls so far (Linux; zeros where /proc is absent). */
function syscalls(): { reads: number; writes: number } {
  try {
    const io = readFileSync('/proc/self/io', 'utf8');
    const count = (name: string) => Number(new RegExp(`^${name}: (\\d+)`, 'm').exec(io)?.[1] ?? 0);
    return { reads: count('syscr'), writes: count('syscw') };
  } catch {
    return { reads: 0, writes: 0 };
  }
}

let session: Session | undefined;

/**
 * bench/queue-profile.ts: `{ profile: 'start' }` starts V8's CPU profiler and its sampling heap
 * profiler in this process, `{ profile: '<file>' }` stops them and writes the .cpuprofile there
 * and the allocations beside it (`<file>.heapprofile`); each answered `{ profiled }`.
 */
async function profile(command: string): Promise<void> {
  if (command === 'start') {
    session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    // 100 µs rather than V8's 1 ms: a 5,000-PayOut round then gives ~10 samples a PayOut, enough
    // to tell apart functions costing a few µs each.
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    // Every ~4 KB allocated is sampled: where a PayOut's garbage comes from, by function.
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
  } else if (session) {
    const { profile: taken } = await session.post('Profiler.stop');
    await writeFile(command, JSON.stringify(taken));
    const { profile: allocations } = await session.post('HeapProfiler.stopSampling');
    await writeFile(`${command.replace(/\.cpuprofile$/, '')}.heapprofile`, JSON.stringify(allocations));
    session.disconnect();
    session = undefined;
  }
  process.send?.({ profiled: command });
}
