/** Latency/throughput runner: n requests, `concurrency` in flight, per-request times in ms. */
import { performance } from 'node:perf_hooks';

/** Raw samples of one or more runs; merge runs of the same scenario, then summarize. */
export interface Samples {
  times: number[];
  elapsedMs: number;
  cpuMs: number;
}

export interface Summary {
  p50: number;
  p99: number;
  rps: number;
  /** Client process CPU (user + system) per wall-clock ms: 1 = one core busy. */
  cpu: number;
}

export async function measure(
  task: (i: number) => Promise<unknown>,
  { requests, concurrency }: { requests: number; concurrency: number },
  into: Samples = { times: [], elapsedMs: 0, cpuMs: 0 },
): Promise<Samples> {
  let next = 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const worker = async () => {
    for (let i = next++; i < requests; i = next++) {
      const t0 = performance.now();
      await task(i);
      into.times.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  into.elapsedMs += performance.now() - started;
  const cpu = process.cpuUsage(cpu0);
  into.cpuMs += (cpu.user + cpu.system) / 1000;
  return into;
}

export function summarize(samples: Samples): Summary {
  const sorted = [...samples.times].sort((a, b) => a - b);
  return {
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    rps: (sorted.length / samples.elapsedMs) * 1000,
    cpu: samples.cpuMs / samples.elapsedMs,
  };
}

export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

export function median(values: readonly number[]): number {
  return quantile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

export const fmt = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
