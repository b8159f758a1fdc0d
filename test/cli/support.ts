/** Spawning the real `payinout` CLI (through tsx, no build) and reading what it prints. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const live: ChildProcess[] = [];

/** Kills every CLI still running (call from afterEach). */
export function killAll(): void {
  for (const child of live.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

export interface Started {
  baseUrl: string;
  dashboardUrl: string;
  stdout: string;
  env: Record<string, string>;
}

/** Spawns `payinout …args`; `started` resolves once the sandbox banner (exports included) is out. */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}) {
  const clean = { ...process.env };
  for (const key of Object.keys(clean)) if (key.startsWith('PAYINOUT_')) delete clean[key];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  live.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const started = new Promise<Started>((resolve, reject) => {
    child.stdout!.on('data', () => {
      if (!/^export PAYINOUT_ENVIRONMENT=/m.test(stdout)) return;
      const env: Record<string, string> = {};
      for (const [, name, value] of stdout.matchAll(/^export (PAYINOUT_\w+)=(.*)$/gm)) env[name!] = value!;
      resolve({
        baseUrl: /^base_url=(\S+)$/m.exec(stdout)![1]!,
        dashboardUrl: /^dashboard=(\S+)$/m.exec(stdout)![1]!,
        stdout,
        env,
      });
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before the banner: ${stderr}`)));
  });
  started.catch(() => {});
  return { child, started, exit, output: () => ({ stdout, stderr }) };
}

/** Runs a command to completion. */
export async function runCli(args: string[], env: Record<string, string | undefined> = {}) {
  const cli = spawnCli(args, env);
  const [code] = await cli.exit;
  return { code, ...cli.output() };
}
