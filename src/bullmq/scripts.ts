/**
 * The few Redis operations payinout/bullmq needs to be atomic, as Lua scripts run through
 * BullMQ's own connection. Each one is a single round trip, so two workers never interleave
 * inside. They are registered with `defineCommand`, which BullMQ 5 (ioredis itself) and BullMQ 6
 * (its client adapter, called through `runCommand`) both offer.
 */
import type { RedisClient } from 'bullmq';

type Arg = string | number;

const SCRIPTS = new Map<string, string>();
const defined = new WeakMap<object, Set<string>>();

/** Registers `lua` under `name` once per connection, then runs it with KEYS then ARGV. */
export async function run(client: RedisClient, lua: string, keys: string[], args: Arg[]): Promise<unknown> {
  let name = SCRIPTS.get(lua);
  if (!name) {
    name = `payinout${SCRIPTS.size}`;
    SCRIPTS.set(lua, name);
  }
  const known = defined.get(client) ?? new Set<string>();
  defined.set(client, known);
  if (!known.has(name)) {
    // No fixed number of keys (a job's scripts take one key per reference): it is passed first.
    client.defineCommand(name, { lua } as { numberOfKeys: number; lua: string });
    known.add(name);
  }
  const flat = [String(keys.length), ...keys, ...args.map(String)];
  const adapter = client as { runCommand?: (name: string, args: string[]) => Promise<unknown> };
  if (typeof adapter.runCommand === 'function') return adapter.runCommand(name, flat);
  return (client as unknown as Record<string, (args: string[]) => Promise<unknown>>)[name]!(flat);
}

/**
 * Records items in the batch's order unless already there, each with the job that holds it;
 * returns 1 (new) or 0 per item. ARGV: (item id, job id)….
 */
const ADD_TO_BATCH = `
local out = {}
local added = {}
for i = 1, #ARGV, 2 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    added[#added + 1] = ARGV[i]
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
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

/** The first result of a job wins: a late worker that lost its lease never overwrites it. */
const SAVE_RESULT = `
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 1 then
  redis.call('HINCRBY', KEYS[2], ARGV[3], 1)
  return 1
end
return 0`;

export async function saveResult(
  client: RedisClient,
  keys: { results: string; counts: string },
  jobId: string,
  json: string,
  outcome: string,
): Promise<boolean> {
  return (await run(client, SAVE_RESULT, [keys.results, keys.counts], [jobId, json, outcome])) === 1;
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

/**
 * Takes the lease when nobody holds it (the key is gone once a holder's lease expired), under a
 * token that starts with a new fence number: a stale holder's token never matches again.
 * Returns the token, or null while another worker holds the reference.
 */
const TAKE_LEASE = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  return false
end
local token = redis.call('INCR', KEYS[2]) .. ':' .. ARGV[1]
redis.call('SET', KEYS[1], token, 'PX', ARGV[2])
return token`;

export async function takeLease(
  client: RedisClient,
  keys: { lease: string; fence: string },
  holder: string,
  ttlMs: number,
): Promise<string | null> {
  const token = await run(client, TAKE_LEASE, [keys.lease, keys.fence], [holder, ttlMs]);
  return typeof token === 'string' ? token : null;
}

/** Renews the lease if `token` still holds it; 0 when another holder (or nobody) has it. */
const RENEW_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
return 0`;

export async function renewLease(client: RedisClient, key: string, token: string, ttlMs: number) {
  return (await run(client, RENEW_LEASE, [key], [token, ttlMs])) === 1;
}

const RELEASE_LEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;

export async function releaseLease(client: RedisClient, key: string, token: string): Promise<void> {
  await run(client, RELEASE_LEASE, [key], [token]);
}

/** Records the batch's halt unless one is recorded: the first one is what every worker reports. */
export async function saveHalt(client: RedisClient, key: string, json: string): Promise<void> {
  await run(client, "return redis.call('SET', KEYS[1], ARGV[1], 'NX') and 1 or 0", [key], [json]);
}

/** Which of `jobIds` BullMQ still holds (its job hash `{prefix}:{queue}:{id}` exists). */
const JOBS_EXIST = `
local out = {}
for i = 2, #ARGV do
  out[i - 1] = redis.call('EXISTS', ARGV[1] .. ARGV[i])
end
return out`;

export async function jobsExist(
  client: RedisClient,
  keyPrefix: string,
  jobIds: string[],
): Promise<boolean[]> {
  const flags = (await run(client, JOBS_EXIST, [], [keyPrefix, ...jobIds])) as number[];
  return flags.map((flag) => flag === 1);
}
