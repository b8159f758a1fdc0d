/**
 * The queue bench's Redis: a redis-server of its own per system measured (so INFO commandstats
 * count that system's commands and nothing else's), command counts, and key clean-up.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';

export interface OwnRedis {
  url: string;
  /** Commands executed so far (Lua's inner calls included; the bench's own INFO left out). */
  commands(): Promise<CommandCount>;
  stop(): void;
}

export interface CommandCount {
  calls: number;
  /** EVALSHA + EVAL. */
  scripts: number;
}

export async function redisReachable(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {});
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

// A bench stopped short (an error, Ctrl+C, a timeout) leaves no redis-server behind.
const running = new Set<() => void>();
process.once('exit', () => {
  for (const kill of running) kill();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));

/** A redis-server on a free port, no persistence; SIGKILLed by stop(). */
export async function ownRedis(): Promise<OwnRedis> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  const child = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      if (out.includes('Ready to accept connections')) resolve();
    });
    child.once('exit', () => reject(new Error('redis-server did not start (is it installed?)')));
  });
  const kill = () => child.kill('SIGKILL');
  running.add(kill);
  const url = `redis://127.0.0.1:${port}`;
  // One connection for the counts, opened once: a new one would add its own handshake commands.
  const stats = new Redis(url);
  return {
    url,
    commands: async () => countOf(await stats.info('commandstats')),
    stop: () => {
      stats.disconnect();
      running.delete(kill);
      kill();
    },
  };
}

function countOf(info: string): CommandCount {
  let calls = 0;
  let scripts = 0;
  for (const [, name, n] of info.matchAll(/^cmdstat_([a-z|_-]+):calls=(\d+)/gm)) {
    if (name === 'info') continue; // the bench's own reads of these counts
    calls += Number(n);
    if (name === 'evalsha' || name === 'eval') scripts += Number(n);
  }
  return { calls, scripts };
}

export async function deleteKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
