/**
 * A queue worker's .cpuprofile by layer: `tsx bench/profile-layers.ts file.cpuprofile`. Each
 * sample goes to the nearest frame on its stack that is not Node's own nor native code — so a
 * socket write counts for ioredis or the SDK's HTTP sender that asked for it — and a sample with
 * none (the event loop, socket reads, timers) to "node internals"; idle and GC apart. With
 * `[payouts]`, the PayOuts settled while profiling, each layer's µs per PayOut too.
 */
import { readProfile } from './cpuprofile.js';

const profile = readProfile(process.argv[2]!);
const { byId } = profile;
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

const LAYERS: [string, RegExp][] = [
  ['BullMQ (and its msgpackr)', /node_modules\/(bullmq|msgpackr|cron-parser|semver|tslib)\//],
  ['ioredis', /node_modules\/(ioredis|redis-parser|@ioredis|standard-as-callback|cluster-key-slot|denque)\//],
  ["payinout's queue code (dist/bullmq)", /\/dist\/bullmq\//],
  ['the SDK (calls, runner, sender)', /\/dist\//],
  ['bench harness', /\/bench\//],
];
function layerOf(url: string): string | undefined {
  if (!url || url.startsWith('node:')) return undefined;
  return LAYERS.find(([, re]) => re.test(url))?.[0] ?? 'other';
}

const time = new Map<string, number>();
let total = 0;
for (const [i, leaf] of profile.samples.entries()) {
  const t = profile.timeDeltas[i] ?? 0;
  total += t;
  const name = byId.get(leaf)!.callFrame.functionName;
  let layer = name === '(idle)' ? 'idle' : name === '(garbage collector)' ? 'GC' : undefined;
  for (let at: number | undefined = leaf; !layer && at !== undefined; at = parent.get(at))
    layer = layerOf(byId.get(at)!.callFrame.url);
  layer ??= 'node internals (event loop, socket reads, timers)';
  time.set(layer, (time.get(layer) ?? 0) + t);
}
const busy = total - (time.get('idle') ?? 0);
const payouts = Number(process.argv[3] ?? 0);
console.log(`| layer | % of busy CPU |${payouts ? ' µs / PayOut |' : ''}\n|---|--:|${payouts ? '--:|' : ''}`);
for (const [layer, t] of [...time, ['total', busy] as const].sort((a, b) => b[1] - a[1])) {
  if (layer === 'idle') continue;
  const each = payouts ? ` ${(t / payouts).toFixed(1)} |` : '';
  console.log(`| ${layer} | ${((100 * t) / busy).toFixed(1)} % |${each}`);
}
