/**
 * The Redis scripts of one job (a chunk of a batch, one PayOut or fifty): one round trip to
 * start it, one to end it, and one per renewal while it runs.
 */
import type { RedisClient } from 'bullmq';
import { run } from './scripts.js';

/**
 * Takes the lease of every reference nobody holds, each under a token that starts with the job's
 * new fence number (a stale holder's token never matches again: one INCR per job), and reads what the job must know
 * before its first request: the shared pause left (ms, Redis's clock) and the batch's halt.
 * KEYS: fence, pause, halt, lease…; ARGV: holder, ttl. Returns { pauseMs, halt|false, token|false… }.
 */
const START_JOB = `
local out = { redis.call('PTTL', KEYS[2]), redis.call('GET', KEYS[3]) }
local fence = nil
for i = 4, #KEYS do
  fence = fence or redis.call('INCR', KEYS[1])
  local token = fence .. ':' .. ARGV[1] .. ':' .. i
  if redis.call('SET', KEYS[i], token, 'NX', 'PX', ARGV[2]) then
    out[i - 1] = token
  else
    out[i - 1] = false
  end
end
return out`;

export interface JobStart {
  /** The shared pause left, by Redis's clock (0: none). */
  pauseMs: number;
  /** The batch's halt record, when a worker recorded one. */
  halt: string | null;
  /** Per lease key asked for: its token, or null while another worker holds it. */
  tokens: (string | null)[];
}

export async function startJob(
  client: RedisClient,
  keys: { fence: string; pause: string; halt: string },
  leaseKeys: string[],
  holder: string,
  ttlMs: number,
): Promise<JobStart> {
  const flat = [keys.fence, keys.pause, keys.halt, ...leaseKeys];
  const out = (await run(client, START_JOB, flat, [holder, ttlMs])) as unknown[];
  const [pttl, halt, ...tokens] = out;
  return {
    pauseMs: Math.max(0, Number(pttl)),
    halt: typeof halt === 'string' ? halt : null,
    tokens: leaseKeys.map((_, i) => (typeof tokens[i] === 'string' ? (tokens[i] as string) : null)),
  };
}

/** Renews each lease its token still holds; 1 or 0 per lease. KEYS: lease…; ARGV: ttl, token…. */
const RENEW_LEASES = `
local out = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[i + 1] then
    redis.call('PEXPIRE', key, ARGV[1])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out`;

export async function renewLeases(
  client: RedisClient,
  held: { key: string; token: string }[],
  ttlMs: number,
): Promise<boolean[]> {
  const keys = held.map((h) => h.key);
  const flags = (await run(client, RENEW_LEASES, keys, [ttlMs, ...held.map((h) => h.token)])) as number[];
  return flags.map((flag) => flag === 1);
}

/**
 * Ends a job: saves each result unless the item has one (the first result wins: a late worker
 * that lost its lease never overwrites it), counts it, and releases the leases still held.
 * KEYS: results, counts, lease…; ARGV: lease count, token…, then (item id, json, outcome)….
 */
const END_JOB = `
local leases = tonumber(ARGV[1])
for i = 1, leases do
  if redis.call('GET', KEYS[i + 2]) == ARGV[i + 1] then
    redis.call('DEL', KEYS[i + 2])
  end
end
local counts = {}
for i = leases + 2, #ARGV, 3 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then
    counts[ARGV[i + 2]] = (counts[ARGV[i + 2]] or 0) + 1
  end
end
for outcome, n in pairs(counts) do
  redis.call('HINCRBY', KEYS[2], outcome, n)
end
return 1`;

export interface SavedResult {
  itemId: string;
  json: string;
  outcome: string;
}

export async function endJob(
  client: RedisClient,
  keys: { results: string; counts: string },
  held: { key: string; token: string }[],
  results: SavedResult[],
): Promise<void> {
  const flat = [keys.results, keys.counts, ...held.map((h) => h.key)];
  const args = [held.length, ...held.map((h) => h.token)];
  for (const r of results) args.push(r.itemId, r.json, r.outcome);
  await run(client, END_JOB, flat, args);
}
