/**
 * MemoryDedupeStore write cost when full: `tsx bench/dedupe-memory.ts [keys]` (default 400,000).
 * Fills a store bounded at `keys`, then runs the handler's sequence per new event — claim
 * (setIfAbsent), complete (set), two retries' gets (one recent, one 1,000 events back) — so
 * every write evicts. Prints µs per write.
 * Reads src/ (not dist/) so the figure can be taken before and after a change to the store.
 * Never part of `npm test`; nothing here asserts a time.
 */
import { performance } from 'node:perf_hooks';
import { MemoryDedupeStore as Current } from '../src/webhooks/dedupe.js';

const keys = Number(process.argv[2] ?? 400_000);
// STORE_MODULE=<path> measures another implementation (e.g. the 0.1 store saved from git).
const MemoryDedupeStore: typeof Current = process.env.STORE_MODULE
  ? (await import(process.env.STORE_MODULE)).MemoryDedupeStore
  : Current;
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
// The logger option exists only after the O(1) rewrite; older stores ignore the extra field.
const store = new MemoryDedupeStore({ maxKeys: keys, logger: quiet } as never);
const DAY = 86_400_000;

for (let i = 0; i < keys; i++) await store.set(`prefill-${i}`, 'done', 7 * DAY);

async function round(from: number, count: number): Promise<number> {
  const started = performance.now();
  for (let i = from; i < from + count; i++) {
    const key = `event-${i}`;
    await store.setIfAbsent(key, `in-flight:${i}`, 60_000);
    await store.set(key, 'done', 7 * DAY);
    await store.get(key); // a retry right after
    await store.get(`event-${i - 1_000}`); // a retry of an event 1,000 deliveries back
  }
  return ((performance.now() - started) * 1000) / (count * 2); // two writes per event
}

const perRound = 20_000;
const samples: number[] = [];
for (let r = 0; r < 6; r++) samples.push(await round(r * perRound, perRound));
samples.sort((a, b) => a - b);
console.log(
  `MemoryDedupeStore full at ${keys.toLocaleString('en')} keys: ${samples[0]!.toFixed(2)}–${samples.at(-1)!.toFixed(2)} µs per write (median ${samples[3]!.toFixed(2)}), ${
    6 * perRound
  } events × (setIfAbsent + set + 2 get), size ${store.size}`,
);
