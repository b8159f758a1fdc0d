/**
 * The Lua every script that reads a lease field shares (chunk-scripts.ts takes, renews and releases
 * leases; scripts.ts READ_RESULTS asks whether one is still held): one reading of Redis's clock and
 * of the field `<until>|<token>` (keys.ts `leases`), so the format and the clock live in one place.
 */

/**
 * Functions: `ms_of(time)` (a TIME answer in ms), `clock_ms()` (Redis's clock now, in ms; TIME in a
 * script is allowed since Redis 5, effects are what replicates) and `parse(field)` (until, in ms
 * by Redis's clock, 0 when unreadable; and token, nil when unreadable).
 */
export const LEASE_LUA = `
local function ms_of(time)
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
local function clock_ms()
  return ms_of(redis.call('TIME'))
end
local function parse(value)
  if not value then return 0, nil end
  local bar = string.find(value, '|', 1, true)
  if not bar then return 0, nil end
  return tonumber(string.sub(value, 1, bar - 1)) or 0, string.sub(value, bar + 1)
end`;

/** After LEASE_LUA: `now` (TIME's answer, for a token's stamp) and `ms` (the same in ms). */
export const NOW = `
local now = redis.call('TIME')
local ms = ms_of(now)`;
