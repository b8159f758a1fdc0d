#!/usr/bin/env node
/**
 * The packed package on every runtime merchants deploy on: `npm pack` of the built dist/,
 * installed into a fresh directory exactly as a merchant installs it, then each case below in
 * its own process. Runtimes come from the npm registry through this folder's own lockfile
 * (`npm ci --prefix ecosystem-tests`), so the root install stays lean and nothing is cached.
 *
 *   npm run build && npm ci --prefix ecosystem-tests && npm run test:ecosystem
 *
 * A runtime that is missing or cannot run is a failure, never a skip.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const here = import.meta.dirname;
const root = resolve(here, '..');
const bin = (path) => join(here, 'node_modules', path);
const TIMEOUT_MS = 120_000;
const CONCURRENCY = 2;

const NODE_LINES = ['20', '22', '24', '26'];
// The oldest Node 20 that package.json `engines` admits: process.getBuiltinModule came in 20.16.
const NODE_FLOOR = '20.16';
const BUN = bin('.bin/bun');
const DENO = bin('.bin/deno');
const host = (file) => [process.execPath, join(here, 'hosts', file)];

/** [name, command, args (app dir appended for hosts), expected runtime prefix] */
const CASES = [
  ...NODE_LINES.flatMap((line) => {
    const node = bin(`node${line}/bin/node`);
    return [
      [`Node ${line}: ESM import — money flow, webhooks`, [node, 'flow.mjs'], `node v${line}.`],
      [`Node ${line}: CJS require — money flow, webhooks`, [node, 'flow.cjs'], `node v${line}.`],
      [
        `Node ${line}: errors instanceof across the ESM and CJS builds`,
        [node, 'dual-errors.mjs'],
        `node v${line}.`,
      ],
    ];
  }),
  [
    `Node ${NODE_FLOOR}.0 (engines floor): ESM import — money flow, webhooks`,
    [bin(`node${NODE_FLOOR}/bin/node`), 'flow.mjs'],
    `node v${NODE_FLOOR}.`,
  ],
  [
    `Node ${NODE_FLOOR}.0 (engines floor): CJS require — money flow, webhooks`,
    [bin(`node${NODE_FLOOR}/bin/node`), 'flow.cjs'],
    `node v${NODE_FLOOR}.`,
  ],
  ['Bun: ESM import — money flow, webhooks', [BUN, 'flow.mjs'], 'bun '],
  ['Bun: errors instanceof across the ESM and CJS builds', [BUN, 'dual-errors.mjs'], 'bun '],
  ['Deno: ESM import — money flow, webhooks', [DENO, 'run', '-A', 'flow.mjs'], 'deno '],
  ['Deno: errors instanceof across the ESM and CJS builds', [DENO, 'run', '-A', 'dual-errors.mjs'], 'deno '],
  ['Cloudflare Workers (workerd, nodejs_compat): money flow, webhooks', host('workers.mjs'), 'workerd'],
  ['Vercel Edge Runtime: money flow, createWebhookHandler (Fetch)', host('edge.mjs'), 'edge-runtime'],
  ['Bundler (esbuild, platform neutral): Node built-ins per entry', host('bundler.mjs'), 'esbuild'],
];

// payinout/bullmq's peer range is ^5 || ^6 and the unit suites run 6: the packed package beside
// BullMQ 5, in an app of its own (installed from the registry like the first), needs Redis.
const BULLMQ_5 = [
  'Node 20 + BullMQ 5: enqueuePayOuts → createPayOutWorker → readPayOutBatch, itemsPerJob 1 and 50',
  [bin('node20/bin/node'), 'queue-flow.mjs'],
  'bullmq 5.',
  'app-bullmq5',
];
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const noRedis = `no Redis at ${redisUrl}: apt-get install redis-server, or set REDIS_URL`;
// Under CI a case without its service fails; on a developer's machine it is skipped, said once.
const redisUp = await reachable(redisUrl);
if (redisUp || process.env.CI) CASES.push(BULLMQ_5);
else console.log(`  - skipped: ${BULLMQ_5[0]} (${noRedis})`);

/** Whether a Redis answers PING at `url` within a second. */
function reachable(url) {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = connect(Number(port || 6379), hostname);
    const finish = (ok) => {
      socket.destroy();
      done(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.on('error', () => finish(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (data) => finish(data.toString().startsWith('+PONG')));
  });
}

if (!existsSync(join(root, 'dist', 'index.js'))) {
  console.error('ecosystem-tests: no dist/; run `npm run build` first.');
  process.exit(1);
}
const work = mkdtempSync(join(tmpdir(), 'payinout-ecosystem-'));
const app = join(work, 'app');
mkdirSync(app);
console.log(`ecosystem tests (app ${app})`);
const started = Date.now();
const quiet = { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] };
const tarball = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], quiet)
  .trim()
  .split('\n')
  .pop();
writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'ecosystem-app', private: true }));
execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', join(work, tarball)], {
  ...quiet,
  cwd: app,
});
for (const file of readdirSync(join(here, 'cases'))) cpSync(join(here, 'cases', file), join(app, file));
console.log(`  packed ${tarball} and installed it (${Date.now() - started} ms)`);
if (CASES.includes(BULLMQ_5)) {
  const dir = join(work, BULLMQ_5[3]);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'ecosystem-bullmq5', private: true }));
  const args = ['install', '--no-audit', '--no-fund', '--no-package-lock', join(work, tarball), 'bullmq@^5'];
  execFileSync('npm', args, { ...quiet, cwd: dir });
  for (const file of readdirSync(join(here, 'cases'))) cpSync(join(here, 'cases', file), join(dir, file));
  console.log(`  installed it again beside bullmq@^5 (${Date.now() - started} ms)`);
}

/** Runs one case in its own process: { name, ok, detail }. */
async function runCase([name, [command, ...args], expected, dir]) {
  if (!existsSync(command)) {
    return { name, ok: false, detail: `${command} is not installed: npm ci --prefix ecosystem-tests` };
  }
  if (dir && !redisUp) return { name, ok: false, detail: noRedis };
  const t0 = Date.now();
  const { code, signal, out } = await spawnCase(
    command,
    command === process.execPath ? [...args, app] : args,
    dir ? join(work, dir) : app,
  );
  const line = out.split('\n').find((l) => l.startsWith('RESULT '));
  const result = line ? JSON.parse(line.slice(7)) : undefined;
  const ms = Date.now() - t0;
  if (code === 0 && result && String(result.runtime).startsWith(expected)) {
    return { name, ok: true, detail: `${summary(result)} (${ms} ms)` };
  }
  const why = signal ? `killed (${signal}) after ${ms} ms` : `exit ${code}`;
  const what = result ? `ran on ${result.runtime}, expected ${expected}` : 'no RESULT line';
  return {
    name,
    ok: false,
    detail: `${why}, ${what}\n${indent(out.trim().split('\n').slice(-25).join('\n'))}`,
  };
}

/** The process's exit and its stdout + stderr; killed after TIMEOUT_MS. */
function spawnCase(command, args, cwd) {
  return new Promise((done) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => (out += chunk));
    child.on('error', (error) => (out += String(error)));
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, out });
    });
  });
}

function summary(result) {
  const { runtime, ticket: _ticket, webhook, bundles, ...rest } = result;
  const parts = Object.entries(rest).map(([k, v]) => `${k} ${v}`);
  if (webhook) parts.push(`webhook: ${webhook.join(', ')}`);
  if (bundles) parts.push(...bundles);
  return `${runtime} — ${parts.join('; ')}`;
}
const indent = (text) => text.replace(/^/gm, '      ');

const results = new Array(CASES.length);
let next = 0;
async function worker() {
  while (next < CASES.length) {
    const index = next++;
    results[index] = await runCase(CASES[index]);
    const { name, ok, detail } = results[index];
    console.log(`  ${ok ? '✓' : '✗'} ${name}\n      ${detail}`);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, worker));
rmSync(work, { recursive: true, force: true });
const passed = results.filter((r) => r.ok).length;
console.log(`ecosystem tests: ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`ecosystem: ${passed} passed, ${results.length - passed} failed`);
process.exit(passed === results.length ? 0 : 1);
