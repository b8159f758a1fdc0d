/** `payinout sandbox`: spawn it, read base_url=, call it, SIGTERM/SIGINT, clean exit. */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function run(args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  const started = new Promise<{ baseUrl: string; stdout: string }>((resolve, reject) => {
    const check = () => {
      const match = /^base_url=(\S+)$/m.exec(stdout);
      // Wait for the whole block (merchant lines follow base_url in one write).
      if (match && /^merchant /m.test(stdout)) resolve({ baseUrl: match[1]!, stdout });
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited ${code} before base_url: ${stderr}`)));
  });
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { child, started, exit, output: () => ({ stdout, stderr }) };
}

const basic = (u: string, p: string) => `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}`;

describe('payinout sandbox', () => {
  it('prints base_url and the merchants, serves the API, exits 0 on SIGTERM', async () => {
    const cli = run([
      'sandbox',
      '--port',
      '0',
      '--merchant',
      'shop:secret:tok123:pe',
      '--time-scale',
      '0.001',
    ]);
    const { baseUrl, stdout } = await cli.started;
    expect(baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout).toContain('merchant username=shop password=secret token=tok123 country=PE currency=PEN');
    const response = await fetch(`${baseUrl}/api/v1/merchant/balance`, {
      headers: { authorization: basic('shop', 'secret'), 'token-top': 'tok123' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      code: '01',
      data: { currency: 'PEN', balance_formatted: 'PEN 0,00' },
    });
    cli.child.kill('SIGTERM');
    const [code] = await cli.exit;
    expect(code).toBe(0);
  });

  it('without --merchant seeds one demo merchant per country; SIGINT also stops cleanly', async () => {
    const cli = run(['sandbox', '--port', '0']);
    const { stdout } = await cli.started;
    for (const country of ['CO', 'PE', 'MX', 'GT', 'HN'])
      expect(stdout).toMatch(new RegExp(`country=${country} `));
    cli.child.kill('SIGINT');
    const [code] = await cli.exit;
    expect(code).toBe(0);
  });

  it('refuses a malformed --merchant with exit code 2', async () => {
    const cli = run(['sandbox', '--port', '0', '--merchant', 'a:b:c']);
    cli.started.catch(() => {});
    const [code] = await cli.exit;
    expect(code).toBe(2);
    expect(cli.output().stderr).toMatch(/USER:PASS:TOKEN:COUNTRY/);
  });
});
