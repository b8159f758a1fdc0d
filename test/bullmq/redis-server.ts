/**
 * A redis-server of a test's own, on a free port, for what the shared Redis must never suffer:
 * being killed (SIGKILL) or frozen (SIGSTOP). Nothing is persisted, unless `aof` names a folder:
 * then every write is in its append-only file before Redis answers (appendfsync always), and
 * `restart()` brings a killed server back on the same port with what it had acknowledged.
 * `available` is false when no redis-server binary is on PATH (outside CI the tests using it are
 * skipped then, saying so; under CI they fail).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

export const redisServerAvailable = spawnSync('redis-server', ['--version']).status === 0;
/** Skip only outside CI; in CI a missing redis-server fails the suite (startRedisServer throws). */
export const skipOwnRedis = !redisServerAvailable && !process.env.CI;
if (skipOwnRedis) {
  console.warn(
    'test/bullmq Redis-kill suites skipped: no redis-server binary on PATH; install it (e.g. apt-get install redis-server).',
  );
}

export interface OwnRedis {
  url: string;
  port: number;
  child: ChildProcess;
  /** Kills it (SIGKILL) if still running and waits for its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (with `aof`, from its append-only file) once it has exited. */
  restart(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startRedisServer({ aof }: { aof?: string } = {}): Promise<OwnRedis> {
  const port = await freePort();
  const persistence = aof
    ? ['--dir', aof, '--appendonly', 'yes', '--appendfsync', 'always']
    : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence];
  let running = await spawnReady(args);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get child() {
      return running.child;
    },
    async stop() {
      const { child, exited } = running;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async restart() {
      await running.exited;
      running = await spawnReady(args);
    },
  };
}

/** A redis-server with `args`, once it says it is ready. */
async function spawnReady(args: string[]): Promise<{ child: ChildProcess; exited: Promise<void> }> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${output}`)), 10_000);
    child.stdout?.on('data', (chunk) => {
      output += chunk;
      if (output.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => reject(new Error(`redis-server exited: ${output}`)));
  });
  return { child, exited };
}
