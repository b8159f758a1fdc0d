/**
 * The Redis scripts of one job (a chunk of a batch, one PayOut or fifty): one operation to
 * start it, one to end it — each sent in one script with the other jobs' starting or ending in the
 * same turn of the event loop (script-batch.ts) — and one script per renewal while it runs.
 *
 * Leases live in ONE hash per queue (keys.ts `leases`), a field per reference being settled, so
 * a chunk's fifty leases are two commands to take (HMGET, HSET) and two to release (HMGET, HDEL)
 * instead of fifty SETs and a hundred GET/DELs. A field is `<until>|<token>`: `until` is when the
 * lease runs out by Redis's own clock (TIME, read inside the script: no host's clock is written
 * into Redis), `token` is the holder's, new at every take, so a holder whose lease ran out and
 * was taken again never renews or releases the new holder's (the fence). One hash for the whole
 * queue keeps one worker at a time per reference across chunks, batches and modes.
 */
import type { RedisClient } from 'bullmq';
import type { Taken } from '../core/lease.js';
import { LEASE_LUA, NOW } from './lease-lua.js';
import { type BatchedRun, scriptBatch } from './script-batch.js';
import { run } from './scripts.js';

/**
 * Takes the lease of every reference nobody holds (or whose holder's lease ran out), and reads
 * what the job must know before its first request, as `flags` asks: `p` the shared pause left
 * (ms, Redis's clock; -2 unread), `h` the batch's halt. One reference: HSETNX alone when it is free.
 * KEYS: leases, pause, halt; ARGV: holder, ttl, flags, reference…. Returns { pttl, halt|false, token|false… }.
 */
const START_JOB = `
start = function(KEYS, ARGV)${NOW}
local ttl = tonumber(ARGV[2])
local out = { -2, false }
if string.find(ARGV[3], 'p', 1, true) then out[1] = redis.call('PTTL', KEYS[2]) end
if string.find(ARGV[3], 'h', 1, true) then out[2] = redis.call('GET', KEYS[3]) end
local stamp = (ms + ttl) .. '|'
local prefix = now[1] .. now[2] .. ':' .. ARGV[1] .. ':'
local n = #ARGV - 3
if n == 0 then return out end
if n == 1 and redis.call('HSETNX', KEYS[1], ARGV[4], stamp .. prefix .. 1) == 1 then
  out[3] = prefix .. 1
  return out
end
local held = redis.call('HMGET', KEYS[1], unpack(ARGV, 4))
local taken = {}
for i = 1, n do
  local until_ms = parse(held[i])
  if until_ms <= ms then
    out[i + 2] = prefix .. i
    taken[#taken + 1] = ARGV[i + 3]
    taken[#taken + 1] = stamp .. prefix .. i
  else
    out[i + 2] = false
  end
end
if #taken > 0 then redis.call('HSET', KEYS[1], unpack(taken)) end
return out
end`;

export interface JobStart {
  /** The shared pause left, by Redis's clock (0: none, or not read). */
  pauseMs: number;
  /** The batch's halt record, when a worker recorded one. */
  halt: string | null;
  /** Per reference asked for: its token, or null while another worker holds it. */
  tokens: Taken[];
}

export interface StartKeys {
  leases: string;
  pause: string;
  halt: string;
}

/** What START_JOB reads beside the leases: the pause (when unheard), the halt (a job's start). */
export interface StartReads {
  pause: boolean;
  halt: boolean;
}

// startJob and endJob chain on the batched script's promise rather than being async functions
// awaiting it: every job makes both, and each async frame is a promise and a turn more.
export function startJob(
  client: RedisClient,
  keys: StartKeys,
  references: string[],
  holder: string,
  ttlMs: number,
  reads: StartReads,
): Promise<JobStart> {
  const flags = `${reads.pause ? 'p' : ''}${reads.halt ? 'h' : ''}-`;
  const flat = [keys.leases, keys.pause, keys.halt];
  const args = [holder, ttlMs, flags, ...references];
  return jobScripts(client, keys.leases, 'start', flat, args).then((out) => {
    const [pttl, halt, ...tokens] = out as unknown[];
    return {
      pauseMs: Math.max(0, Number(pttl)),
      halt: typeof halt === 'string' ? halt : null,
      tokens: references.map((_, i) => (typeof tokens[i] === 'string' ? (tokens[i] as string) : null)),
    };
  });
}

/**
 * Renews each lease its token still holds; 1 or 0 per lease.
 * KEYS: leases; ARGV: ttl, (reference, token)….
 */
const RENEW_LEASES = `${LEASE_LUA}${NOW}
local stamp = (ms + tonumber(ARGV[1])) .. '|'
local refs = {}
for i = 2, #ARGV, 2 do refs[#refs + 1] = ARGV[i] end
local held = redis.call('HMGET', KEYS[1], unpack(refs))
local out, renewed = {}, {}
for i, ref in ipairs(refs) do
  local _, token = parse(held[i])
  if token == ARGV[2 * i + 1] then
    renewed[#renewed + 1] = ref
    renewed[#renewed + 1] = stamp .. token
    out[i] = 1
  else
    out[i] = 0
  end
end
if #renewed > 0 then redis.call('HSET', KEYS[1], unpack(renewed)) end
return out`;

/** A lease as the scripts name it: its reference and this holder's token. */
export interface LeaseRef {
  reference: string;
  token: string;
}

export async function renewLeases(
  client: RedisClient,
  leases: string,
  held: LeaseRef[],
  ttlMs: number,
): Promise<boolean[]> {
  const args = [ttlMs, ...held.flatMap((h) => [h.reference, h.token])];
  const flags = (await run(client, RENEW_LEASES, [leases], args)) as number[];
  return flags.map((flag) => flag === 1);
}

/**
 * Ends a job: releases the leases its tokens still hold (an empty token: the lease of a holder
 * that died, released once it ran out), then saves each result unless the item has one (the
 * first result wins: a late worker that lost its lease never overwrites it) and counts it.
 * KEYS: results, counts, leases; ARGV: lease count, (reference, token)…, then (item id, json, outcome)….
 */
const END_JOB = `
finish = function(KEYS, ARGV)
local ms = nil
local leases = tonumber(ARGV[1])
local first = 2 * leases + 2
if leases > 0 then
  local refs = {}
  for i = 2, first - 1, 2 do refs[#refs + 1] = ARGV[i] end
  local held = redis.call('HMGET', KEYS[3], unpack(refs))
  local gone = {}
  for i, ref in ipairs(refs) do
    local until_ms, token = parse(held[i])
    local mine = ARGV[2 * i + 1]
    if token and mine == '' and not ms then ms = clock_ms() end
    if token and (token == mine or (mine == '' and until_ms <= ms)) then gone[#gone + 1] = ref end
  end
  if #gone > 0 then redis.call('HDEL', KEYS[3], unpack(gone)) end
end
local ids = {}
for i = first, #ARGV, 3 do ids[#ids + 1] = ARGV[i] end
if #ids == 0 then return 1 end
if #ids == 1 then
  if redis.call('HSETNX', KEYS[1], ids[1], ARGV[first + 1]) == 1 then
    redis.call('HINCRBY', KEYS[2], ARGV[first + 2], 1)
  end
  return 1
end
local saved = redis.call('HMGET', KEYS[1], unpack(ids))
local fresh, counts = {}, {}
for j, id in ipairs(ids) do
  if not saved[j] then
    local at = first + 3 * (j - 1)
    fresh[#fresh + 1] = id
    fresh[#fresh + 1] = ARGV[at + 1]
    counts[ARGV[at + 2]] = (counts[ARGV[at + 2]] or 0) + 1
  end
end
if #fresh > 0 then redis.call('HSET', KEYS[1], unpack(fresh)) end
for outcome, n in pairs(counts) do
  redis.call('HINCRBY', KEYS[2], outcome, n)
end
return 1
end`;

export interface SavedResult {
  itemId: string;
  json: string;
  outcome: string;
}

export function endJob(
  client: RedisClient,
  keys: { results: string; counts: string; leases: string },
  held: LeaseRef[],
  results: SavedResult[],
  written?: () => void,
): Promise<unknown> {
  const flat = [keys.results, keys.counts, keys.leases];
  const args: (string | number)[] = [held.length];
  for (const h of held) args.push(h.reference, h.token);
  for (const r of results) args.push(r.itemId, r.json, r.outcome);
  return jobScripts(client, keys.leases, 'finish', flat, args, written);
}

/** A job's first and last scripts, batched with other jobs' of the same turn (script-batch.ts). */
const jobScripts: BatchedRun = scriptBatch(`${LEASE_LUA}
local OPS = {${START_JOB},${END_JOB}}`);
