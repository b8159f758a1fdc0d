/**
 * Two or more .cpuprofile files side by side, self time per function in µs per PayOut (or per
 * unit of `n`): `tsx bench/profile-diff.ts [--n 5000] a.cpuprofile b.cpuprofile…`, sorted by how
 * much the last differs from the first (`--top 50`). Chunk hashes are dropped from file names, so
 * two builds' profiles line up. Written for queue-profile.ts A/Bs (it found the PayOut step's
 * frozen option objects).
 */
import { readProfile } from './cpuprofile.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at < 0 ? fallback : Number(args.splice(at, 2)[1]);
};
const per = option('--n', 5_000);
const top = option('--top', 50);

function selfTimes(file: string): Map<string, number> {
  const profile = readProfile(file);
  const self = new Map<string, number>();
  for (const [i, id] of profile.samples.entries()) {
    const { functionName, url, lineNumber } = profile.byId.get(id)!.callFrame;
    const where = url
      .replace(/.*node_modules\//, '')
      .replace(/.*\/dist\//, 'dist/')
      .replace(/chunk-\w+/, 'chunk');
    const key = `${functionName || '(anon)'} ${where}:${lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  return self;
}

const tables = args.map(selfTimes);
const us = (t: Map<string, number>, key: string) => (t.get(key) ?? 0) / per;
const busy = tables.map(
  (t) => [...t].filter(([k]) => !k.startsWith('(idle)')).reduce((a, [, v]) => a + v, 0) / per,
);
console.log(`busy µs per unit: ${busy.map((b) => b.toFixed(1)).join(' | ')}`);
const first = tables[0]!;
const last = tables.at(-1)!;
const keys = [...new Set(tables.flatMap((t) => [...t.keys()]))].filter((k) => !k.startsWith('(idle)'));
keys.sort((a, b) => Math.abs(us(last, b) - us(first, b)) - Math.abs(us(last, a) - us(first, a)));
for (const key of keys.slice(0, top)) {
  console.log(`${tables.map((t) => us(t, key).toFixed(1).padStart(7)).join(' ')}  ${key}`);
}
