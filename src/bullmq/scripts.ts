/**
 * The few Redis operations payinout/bullmq needs to be atomic, as Lua scripts run through
 * BullMQ's own connection. Each one is a single round trip, so two workers never interleave
 * inside. They are registered with `defineCommand`, which BullMQ 5 (ioredis itself) and BullMQ 6
 * (its client adapter, called through `runCommand`) both offer.
 */
import type { RedisClient } from 'bullmq';
import { LEASE_LUA } from './lease-lua.js';

type Arg = string | number;

const SCRIPTS = new Map<string, string>();
const defined = new WeakMap<object, Set<string>>();

/** Registers `lua` under `name` once per connection, then runs it with KEYS then ARGV. */
export function run(client: RedisClient, lua: string, keys: string[], args: Arg[]): Promise<unknown> {
  return runFlat(client, lua, [String(keys.length), ...keys, ...args.map(String)]);
}

/** {@link run} with its arguments already as the command takes them: the key count, KEYS, ARGV. */
export async function runFlat(client: RedisClient, lua: string, flat: string[]): Promise<unknown> {
  let name = SCRIPTS.get(lua);
  if (!name) {
    name = `payinout${SCRIPTS.size}`;
    SCRIPTS.set(lua, name);
  }
  let known = defined.get(client);
  if (!known) {
    known = new Set<string>();
    defined.set(client, known);
  }
  if (!known.has(name)) {
    // No fixed number of keys (a job's scripts take one key per reference): it is passed first.
    client.defineCommand(name, { lua } as { numberOfKeys: number; lua: string });
    known.add(name);
  }
  const adapter = client as { runCommand?: (name: string, args: string[]) => Promise<unknown> };
  if (typeof adapter.runCommand === 'function') return adapter.runCommand(name, flat);
  return (client as unknown as Record<string, (args: string[]) => Promise<unknown>>)[name]!(flat);
}

/**
 * Records items in the batch's order unless already there, each with the job that holds it;
 * returns 1 (new) or 0 per item. A few commands per call, whatever its size (HMGET, HSET, RPUSH).
 * ARGV: (item id, job id)….
 */
const ADD_TO_BATCH = `
local ids = {}
for i = 1, #ARGV, 2 do ids[#ids + 1] = ARGV[i] end
local known = redis.call('HMGET', KEYS[1], unpack(ids))
local out, fresh, added, seen = {}, {}, {}, {}
for j, id in ipairs(ids) do
  if known[j] or seen[id] then
    out[j] = 0
  else
    seen[id] = true
    fresh[#fresh + 1] = id
    fresh[#fresh + 1] = ARGV[2 * j]
    added[#added + 1] = id
    out[j] = 1
  end
end
for i = 1, #fresh, 1000 do
  redis.call('HSET', KEYS[1], unpack(fresh, i, math.min(i + 999, #fresh)))
end
for i = 1, #added, 1000 do
  redis.call('RPUSH', KEYS[2], unpack(added, i, math.min(i + 999, #added)))
end
return out`;

export async function addToBatch(
  client: RedisClient,
  keys: { index: string; order: string },
  entries: { itemId: string; jobId: string }[],
): Promise<boolean[]> {
  if (entries.length === 0) return [];
  const args = entries.flatMap((e) => [e.itemId, e.jobId]);
  const flags = (await run(client, ADD_TO_BATCH, [keys.index, keys.order], args)) as number[];
  return flags.map((flag) => flag === 1);
}

/**
 * Extends the shared pause to `ms` from now, never shortens it, and announces it on the channel
 * named like the key, so every worker's jobs in flight pause at once without reading Redis
 * before each request. The pause is the key's time to
 * live, kept by Redis's clock: a worker learns how long is left (PTTL), never an epoch time
 * written by another host, whose clock may be minutes away from its own.
 */
const PAUSE_FOR = `
if redis.call('PTTL', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[1])
  redis.call('PUBLISH', KEYS[1], ARGV[1])
end
return 1`;

export async function pauseFor(client: RedisClient, key: string, ms: number): Promise<void> {
  await run(client, PAUSE_FOR, [key], [Math.max(1, Math.ceil(ms))]);
}

/** The shared pause left, in ms by Redis's clock (0 when there is none). */
export async function pauseLeft(client: RedisClient, key: string): Promise<number> {
  return Math.max(0, Number(await run(client, "return redis.call('PTTL', KEYS[1])", [key], [])));
}

/** Records the batch's halt unless one is recorded: the first one is what every worker reports. */
export async function saveHalt(client: RedisClient, key: string, json: string): Promise<void> {
  await run(client, "return redis.call('SET', KEYS[1], ARGV[1], 'NX') and 1 or 0", [key], [json]);
}

/**
 * Each item's saved result, or — for one without — whether BullMQ still holds the job named for it
 * in the batch's index (its job hash `{prefix}:{queue}:{id}` exists; a numeric entry, 0.3's
 * position, means the item's own id), or a worker still holds its reference's lease. One script,
 * so no job completes between the reads: a job saves its result before BullMQ removes it, and a
 * reader that saw "no result" and then "no job" in two steps took a job that completed in between
 * for one that vanished. The lease covers a result written after its job's completion (a script
 * resent after NOSCRIPT, job-end.ts): its holder releases the lease only in that same script.
 * KEYS: results, index, leases. ARGV: job key prefix, item count n, n item ids, n references.
 */
const READ_RESULTS = `${LEASE_LUA}
local n = tonumber(ARGV[2])
local ids = {unpack(ARGV, 3, n + 2)}
local stored = redis.call('HMGET', KEYS[1], unpack(ids))
local named = redis.call('HMGET', KEYS[2], unpack(ids))
local out, held, ms = {}, {}, nil
for i, id in ipairs(ids) do
  if stored[i] then
    out[i] = stored[i]
  else
    local job = named[i]
    if not job or string.match(job, '^%d+$') then job = id end
    if held[job] == nil then held[job] = redis.call('EXISTS', ARGV[1] .. job) end
    out[i] = held[job]
    if out[i] == 0 then
      local lease = redis.call('HGET', KEYS[3], ARGV[n + 2 + i])
      if lease then
        ms = ms or clock_ms()
        if parse(lease) > ms then out[i] = 1 end
      end
    end
  end
end
return out`;

/** An item's saved result (JSON), or `held`/`gone`: whether its job is still on the queue. */
export type StoredItem = { json: string } | 'held' | 'gone';

export async function readResults(
  client: RedisClient,
  keys: { results: string; index: string; leases: string },
  keyPrefix: string,
  items: { itemIds: string[]; references: string[] },
): Promise<StoredItem[]> {
  const { itemIds, references } = items;
  if (itemIds.length === 0) return [];
  const args = [keyPrefix, itemIds.length, ...itemIds, ...references];
  const out = (await run(client, READ_RESULTS, [keys.results, keys.index, keys.leases], args)) as (
    | string
    | number
  )[];
  return out.map((value) => (typeof value === 'string' ? { json: value } : value === 1 ? 'held' : 'gone'));
}
