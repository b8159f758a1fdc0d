/**
 * Bytes allocated per function of a sampling heap profile (a `.heapprofile` written by
 * bench/queue-profile.ts beside its .cpuprofile): `tsx bench/heap-summary.ts file.heapprofile [n]`,
 * with `n` the PayOuts of the profiled round for bytes per PayOut. Sampled allocations, so a
 * function's figure is an estimate; the ranking is what to read.
 */
import { readFileSync } from 'node:fs';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

const { head } = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as { head: HeapNode };
const per = Number(process.argv[3] ?? 1);
const bytes = new Map<string, number>();
const walk = (node: HeapNode) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url
    .replace(/.*node_modules\//, '')
    .replace(/.*\/dist\//, 'dist/')
    .replace(/chunk-\w+/, 'chunk');
  const key = `${functionName || '(anon)'} ${where}:${lineNumber}`;
  bytes.set(key, (bytes.get(key) ?? 0) + node.selfSize);
  for (const child of node.children) walk(child);
};
walk(head);
const total = [...bytes.values()].reduce((a, b) => a + b, 0);
console.log(`allocated (sampled): ${(total / per).toFixed(0)} bytes per unit`);
for (const [key, size] of [...bytes].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
  console.log(`${(size / per).toFixed(0).padStart(7)}  ${key}`);
}
