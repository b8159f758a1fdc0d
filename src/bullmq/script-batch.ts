/**
 * Scripts of many jobs in one round trip. A worker's jobs start and end a few at a time — the jobs
 * BullMQ hands over in the answers read in one turn of the event loop start in it, the jobs whose
 * creates are answered in one turn end in it — and each script written to Redis is a command
 * for ioredis to build, a socket write and an answer to parse: with one job per PayOut those were
 * a third of the worker's CPU beyond the SDK's calls. So the operations asked for during one turn
 * of the event loop go out together, at its end (setImmediate), as ONE script that runs each in
 * turn: one command written whatever their number. Each operation's effect is what its own script
 * would have had (the batch runs atomically, as each of them did); one that fails (someone else's
 * value under a key) fails alone, and a failed round trip fails every operation of it, each as its
 * own call would have.
 */
import type { RedisClient } from 'bullmq';
import { runFlat } from './scripts.js';

type Arg = string | number;

/**
 * Runs each operation of the batch in order. ARGV is the count n; then per operation its name,
 * key count k, argument count and k indexes into KEYS (each key is sent once however many
 * operations name it: a turn's jobs mostly share their queue's and their batch's keys); then
 * every operation's arguments. Each answer is the operation's own, or an error reply in its place.
 */
const DISPATCH = `
local n = tonumber(ARGV[1])
local heads, at = {}, 2
for i = 1, n do
  local nk = tonumber(ARGV[at + 1])
  local keys = {}
  for j = 1, nk do keys[j] = KEYS[tonumber(ARGV[at + 2 + j])] end
  heads[i] = { ARGV[at], keys, tonumber(ARGV[at + 2]) }
  at = at + 3 + nk
end
local out = {}
local a = at - 1
for i = 1, n do
  local name, keys, na = heads[i][1], heads[i][2], heads[i][3]
  local ok, res = pcall(OPS[name], keys, {unpack(ARGV, a + 1, a + na)})
  a = a + na
  if ok then
    out[i] = res
  elseif type(res) == 'table' and res.err then
    out[i] = redis.error_reply(res.err)
  else
    out[i] = redis.error_reply(tostring(res))
  end
end
return out`;

interface Op {
  name: string;
  keys: string[];
  args: Arg[];
  resolve: (answer: unknown) => void;
  reject: (error: unknown) => void;
  /** Called once the operation is on the connection, ahead of anything sent after it. */
  written?: (() => void) | undefined;
}

/**
 * Runs operation `name` on `client`, with `keys` then `args`, batched with the others on the same
 * connection and the same `queue` (its key prefix: a batch's keys stay in one Redis Cluster slot
 * even when one connection serves workers of several queues).
 */
export type BatchedRun = (
  client: RedisClient,
  queue: string,
  name: string,
  keys: string[],
  args: Arg[],
  /**
   * Called once the script is on the connection (written, or queued while it reconnects): a
   * command sent on the same connection after that runs after it.
   */
  written?: () => void,
) => Promise<unknown>;

/**
 * `ops` is Lua whose last statement defines the table OPS of operations, each
 * `name = function(KEYS, ARGV) … end`. Returns what runs one of them, batched with the others asked
 * for on the same connection, for the same queue, in the same turn of the event loop.
 */
export function scriptBatch(ops: string): BatchedRun {
  const lua = `${ops}${DISPATCH}`;
  const pending = new Map<RedisClient, Map<string, Op[]>>();
  const flush = (client: RedisClient) => {
    const queues = pending.get(client);
    pending.delete(client);
    holdWrites(client);
    for (const batch of queues?.values() ?? []) {
      void send(client, lua, batch);
      for (const op of batch) op.written?.();
    }
  };
  return (client, queue, name, keys, args, written) =>
    new Promise((resolve, reject) => {
      let queues = pending.get(client);
      if (!queues) {
        queues = new Map();
        pending.set(client, queues);
        // At the end of this turn of the event loop, once every socket it read is handled: the
        // jobs its answers (Redis's, the service's) let go on are all in the batch. Measured
        // beside process.nextTick (only this callback's jobs): fewer scripts, no more CPU.
        setImmediate(flush, client);
      }
      const batch = queues.get(queue) ?? [];
      queues.set(queue, batch);
      batch.push({ name, keys, args, resolve, reject, written });
    });
}

/**
 * Holds what is written to `client`'s socket until this turn's promise callbacks have run, then
 * writes it in one system call: the batch, and the completions BullMQ sends for the jobs it let
 * return (a job returns once its END_JOB is written, job.ts). Measured with one job per PayOut:
 * 3.55 socket writes a PayOut became 2.37, and the worker's CPU a PayOut fell 12 %. Only a Node
 * socket (ioredis's `stream`) is held; another client writes as it always does.
 */
function holdWrites(client: RedisClient): void {
  const stream = (client as { stream?: { cork?: unknown; uncork?: unknown } }).stream;
  if (typeof stream?.cork !== 'function' || typeof stream.uncork !== 'function') return;
  const socket = stream as { cork(): void; uncork(): void };
  socket.cork();
  // A tick queued from a promise callback runs once every promise callback queued is done.
  void Promise.resolve().then(() => process.nextTick(() => socket.uncork()));
}

async function send(client: RedisClient, lua: string, batch: Op[]): Promise<void> {
  let answers: unknown[];
  try {
    answers = (await runFlat(client, lua, commandOf(batch))) as unknown[];
  } catch (error) {
    for (const op of batch) op.reject(error);
    return;
  }
  for (const [i, op] of batch.entries()) {
    const answer = answers[i];
    if (answer instanceof Error) op.reject(answer);
    else op.resolve(answer);
  }
}

/** The script's arguments (DISPATCH): the key count, each distinct key once, ARGV. */
function commandOf(batch: Op[]): string[] {
  const keys: string[] = [];
  const indexOf = new Map<string, string>();
  const heads: string[] = [String(batch.length)];
  for (const op of batch) {
    heads.push(op.name, String(op.keys.length), String(op.args.length));
    for (const key of op.keys) {
      let index = indexOf.get(key);
      if (index === undefined) {
        keys.push(key);
        index = String(keys.length);
        indexOf.set(key, index);
      }
      heads.push(index);
    }
  }
  const flat = [String(keys.length), ...keys, ...heads];
  for (const op of batch) for (const arg of op.args) flat.push(typeof arg === 'string' ? arg : String(arg));
  return flat;
}
