/**
 * Import time in a fresh `node` process: performance.now() around `await import(name)` inside
 * the process, and the wall clock of the whole process as seen from here. Packages are run in
 * interleaved rounds so that machine drift hits each alike; `node` alone gives the startup floor.
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { median } from './stats.js';

export const IMPORT_TARGETS = ['payinout', 'zod', 'zod/mini', 'stripe', 'openai', 'mercadopago'] as const;

export interface ImportTime {
  /** In-process median of `await import()`, ms. */
  inProcess: number;
  /** Median wall clock of the whole process (node startup included), ms. */
  wall: number;
  runs: number;
}

/** The cost of a first dynamic import itself (ESM loader warm-up): an empty data: module. */
const EMPTY = 'data:text/javascript,export default 1';

function once(name: string | undefined): { inProcess: number; wall: number } {
  const code = name
    ? `const t0 = performance.now(); await import(${JSON.stringify(name)}); process.stdout.write(String(performance.now() - t0));`
    : `process.stdout.write('0');`;
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  const wall = performance.now() - started;
  if (child.status !== 0) throw new Error(`import ${name} failed: ${child.stderr}`);
  return { inProcess: Number(child.stdout), wall };
}

export function benchImports(runs = 21): Record<string, ImportTime> {
  const names = ['(node alone)', EMPTY, ...IMPORT_TARGETS];
  const seen: Record<string, { inProcess: number[]; wall: number[] }> = {};
  for (const name of names) once(name === '(node alone)' ? undefined : name); // disk cache warm-up
  for (let round = 0; round < runs; round++) {
    for (const name of names) {
      const { inProcess, wall } = once(name === '(node alone)' ? undefined : name);
      seen[name] ??= { inProcess: [], wall: [] };
      seen[name].inProcess.push(inProcess);
      seen[name].wall.push(wall);
    }
  }
  const out: Record<string, ImportTime> = {};
  for (const [name, { inProcess, wall }] of Object.entries(seen)) {
    out[name === EMPTY ? '(empty module)' : name] = {
      inProcess: median(inProcess),
      wall: median(wall),
      runs,
    };
  }
  return out;
}
