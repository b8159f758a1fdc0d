/** A server in its own process (forked under tsx): its port, its CPU time, and a clean stop. */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface ChildServer {
  port: number;
  extra: Record<string, unknown>;
  /** CPU time (user + system) used by the server process so far, in ms. */
  cpuMs(): Promise<number>;
  /** Sends `message` and resolves with the server's next answer (e.g. bulk-server's 'requests'). */
  ask(message: string): Promise<unknown>;
  stop(): Promise<void>;
}

export async function startChild(file: string, env: Record<string, string> = {}): Promise<ChildServer> {
  const child: ChildProcess = fork(fileURLToPath(new URL(file, import.meta.url)), {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const first = await next(child);
  const { port, ...extra } = first as { port: number };
  return {
    port,
    extra,
    async cpuMs() {
      child.send('cpu');
      const { cpu } = (await next(child)) as { cpu: NodeJS.CpuUsage };
      return (cpu.user + cpu.system) / 1000;
    },
    ask(message) {
      child.send(message);
      return next(child);
    },
    async stop() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send('exit');
      await exited;
    },
  };
}

function next(child: ChildProcess): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`bench server exited (${code})`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message);
    });
  });
}
