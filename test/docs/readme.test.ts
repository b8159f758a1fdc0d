/**
 * The README's first screen is run as a newcomer runs it, so it never drifts from the SDK:
 * `npx payinout sandbox` (the real CLI, through tsx) prints the `export` lines the README shows;
 * with exactly those variables, every TypeScript/JavaScript block runs to completion (or, for a
 * server, listens and receives the webhook the simulator really delivers); every shell command is
 * one this repository answers; every link is a full address that resolves to a guide and heading.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { DEFAULT_PORT } from '../../src/cli/sandbox.js';
import { GUIDES_URL } from '../../src/core/guides.js';
import { killAll, type Started, spawnCli } from '../cli/support.js';
import { codeBlocks, headingAnchors, links, SCRIPT_LANGS, SHELL_LANGS } from './markdown.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');
const BLOCKS = codeBlocks(README);
const SCRIPTS = BLOCKS.filter((b) => SCRIPT_LANGS.has(b.lang));
/** A block that starts a server: it runs alongside the others instead of to completion. */
const isServer = (code: string) => /\.listen\(/.test(code);
const WORK = `${ROOT}.tmp/readme-${randomUUID()}`;

let sandbox: Started;
let env: Record<string, string>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  await mkdir(WORK, { recursive: true });
  sandbox = await spawnCli(['sandbox', '--port', '0']).started;
  env = { ...sandbox.env, PORT: String(await freePort()) };
}, 30_000);

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  killAll();
  await rm(WORK, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Writes a block as `name.mts` and runs it with tsx (the README's `npx tsx`), `payinout` → src/. */
async function runBlock(code: string, name: string) {
  const file = `${WORK}/${name}.mts`;
  await writeFile(file, code);
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PAYINOUT_')));
  const child = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: ROOT,
    env: { ...clean, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (chunk) => {
    out.stdout += chunk;
  });
  child.stderr!.on('data', (chunk) => {
    out.stderr += chunk;
  });
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  return { child, out, exit };
}

async function until(check: () => boolean | Promise<boolean>, what: string, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket.end() && true));
    socket.on('error', () => resolve(false));
  });

describe('README: the sandbox step', () => {
  it('`npx payinout sandbox` prints the export lines the README shows', () => {
    const shown = BLOCKS.flatMap((b) => [...b.code.matchAll(/^export (PAYINOUT_\w+)=(\S+)$/gm)]);
    expect(shown.map((m) => m[1])).toEqual(Object.keys(sandbox.env));
    for (const [, name, value] of shown) {
      const printed = sandbox.env[name!]!;
      if (name === 'PAYINOUT_BASE_URL') {
        expect(value).toBe(`http://127.0.0.1:${DEFAULT_PORT}`); // the port without --port
        expect(printed).toBe(sandbox.baseUrl);
      } else expect(printed, name).toBe(value);
    }
    expect(README).toContain(`http://127.0.0.1:${DEFAULT_PORT}/dashboard/`);
  });
});

describe('README: the code blocks run against the simulator with those variables', () => {
  it('has a first PayIn and a webhook receiver', () => {
    expect(SCRIPTS.filter((b) => !isServer(b.code))).not.toHaveLength(0);
    expect(SCRIPTS.filter((b) => isServer(b.code))).not.toHaveLength(0);
    for (const block of SCRIPTS)
      expect(block.code.split('\n').length, `line ${block.line}`).toBeLessThanOrEqual(10);
  });

  it('every block runs; the receiver gets and verifies the webhook the PayIn causes', async () => {
    const servers = await Promise.all(
      SCRIPTS.filter((b) => isServer(b.code)).map((b) => runBlock(b.code, `block-${b.line}`)),
    );
    await until(() => accepts(Number(env.PORT)), 'the receiver block to listen');
    for (const block of SCRIPTS.filter((b) => !isServer(b.code))) {
      const run = await runBlock(block.code, `block-${block.line}`);
      const code = await run.exit;
      expect(code, `README block at line ${block.line}:\n${run.out.stderr}`).toBe(0);
      expect(run.out.stdout.trim().split('\n').at(-1)).toBe('APPROVED');
    }
    const receiver = servers[0]!;
    await until(
      () => /webhook \S+ APPROVED/.test(receiver.out.stdout),
      `the webhook: ${receiver.out.stderr}`,
    );
    expect(receiver.out.stderr).toBe('');
  }, 60_000);
});

describe('README: the code blocks typecheck against the SDK', () => {
  it('tsc (strict, the repository settings) finds no error in any block', async () => {
    const files = SCRIPTS.map((b) => `${WORK}/typed-${b.line}.mts`);
    await Promise.all(SCRIPTS.map((b, i) => writeFile(files[i]!, b.code)));
    const config = { extends: '../../tsconfig.json', include: files.map((f) => f.slice(WORK.length + 1)) };
    await writeFile(`${WORK}/tsconfig.json`, JSON.stringify(config));
    const tsc = spawn(process.execPath, [`${ROOT}node_modules/typescript/bin/tsc`, '-p', WORK], {
      cwd: ROOT,
    });
    let output = '';
    tsc.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const [code] = await once(tsc, 'exit');
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});

describe('README: shell commands and links', () => {
  const commands = BLOCKS.filter((b) => SHELL_LANGS.has(b.lang)).flatMap((b) =>
    b.code
      .split('\n')
      .flatMap((line) => line.split('&&'))
      .map((command) => command.trim())
      .filter(Boolean),
  );

  it('every shell command is one this package answers', () => {
    expect(commands).toContain('npx payinout sandbox'); // run above
    expect(commands).toContain('npm run example');
    expect(commands).toContain('npm test');
    // Every `npx tsx` the prose asks for has tsx installed by a shell block first.
    if (/npx tsx /.test(README)) expect(commands).toContain('npm install -D tsx');
    for (const command of commands) {
      if (command === 'npx payinout sandbox' || command === 'npm install' || command === 'npm test') continue;
      const install = /^npm install (\S+)$/.exec(command);
      const devInstall = /^npm install -D (\S+)$/.exec(command);
      const script = /^npm run (\S+)$/.exec(command);
      if (install) expect(install[1]).toBe(pkg.name);
      // The runner the README's `npx tsx file.mts` steps need, the one these tests run them with.
      else if (devInstall) expect(Object.keys(pkg.devDependencies)).toContain(devInstall[1]);
      else if (script) expect(Object.keys(pkg.scripts)).toContain(script[1]);
      else expect.fail(`README shell command not checked by this test: ${command}`);
    }
    expect(pkg.bin).toHaveProperty('payinout');
  });

  it('every link is a full address; a guide link names an existing guide and heading', () => {
    const targets = links(README);
    expect(targets.length).toBeGreaterThan(5);
    for (const target of targets) {
      expect(target, 'the npm page shows no relative link').toMatch(/^https:\/\//);
      if (!target.startsWith(GUIDES_URL)) continue;
      const [file, anchor] = target.slice(GUIDES_URL.length).split('#');
      const path = `${ROOT}docs/${file}`;
      expect(existsSync(path), target).toBe(true);
      if (anchor) expect([...headingAnchors(readFileSync(path, 'utf8'))], target).toContain(anchor);
    }
  });
});
