/** Self time per function and per package of a .cpuprofile: `tsx bench/profile-summary.ts file.cpuprofile`. */
import { readProfile } from './cpuprofile.js';

const profile = readProfile(process.argv[2]!);
const { byId } = profile;
const self = new Map<number, number>();
for (const [i, id] of profile.samples.entries())
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
const total = [...self.values()].reduce((a, b) => a + b, 0);
const fn = new Map<string, number>();
const pkg = new Map<string, number>();
const where = (url: string) =>
  url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
  (url.includes('/dist')
    ? 'payinout'
    : url.startsWith('node:')
      ? url.split('/')[0]!
      : url
        ? 'other'
        : '(vm)');
for (const [id, t] of self) {
  const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
  const key = `${functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`;
  fn.set(key, (fn.get(key) ?? 0) + t);
  const p = where(url);
  pkg.set(p, (pkg.get(p) ?? 0) + t);
}
const show = (m: Map<string, number>, n: number) => {
  for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n)) {
    console.log(`${((100 * t) / total).toFixed(1).padStart(5)} %  ${k}`);
  }
};
console.log('-- by package');
show(pkg, 15);
console.log('-- by function');
show(fn, 45);
// Inclusive (total) time of functions, counted once per sample however deep they recurse.
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const inclusive = new Map<string, number>();
profile.samples.forEach((id, i) => {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const { functionName, url, lineNumber } = byId.get(at)!.callFrame;
    seen.add(`${functionName || '(anon)'} ${url.split('/').slice(-2).join('/')}:${lineNumber}`);
  }
  for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
});
console.log('-- inclusive');
show(inclusive, Number(process.argv[3] ?? 60));
