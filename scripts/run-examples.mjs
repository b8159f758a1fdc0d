#!/usr/bin/env node
/**
 * `npm run test:examples`: runs every example against the embedded simulator and fails if any
 * fails. Examples are examples/*.ts (run with tsx) and examples/*.test.ts (run with vitest,
 * vitest.staging.config.ts). PAYINOUT_* variables are removed so CI never reaches a real
 * environment by accident; `npm run test:staging` is the way to do that.
 *
 *   node scripts/run-examples.mjs [name-filter]
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const filter = process.argv[2];
const TIMEOUT_MS = 120_000;

const env = { ...process.env };
for (const key of Object.keys(env)) if (key.startsWith('PAYINOUT_')) delete env[key];

const files = readdirSync(join(root, 'examples'))
  .filter((name) => name.endsWith('.ts') && !name.startsWith('_') && !name.endsWith('.d.ts'))
  .filter((name) => !filter || name.includes(filter))
  .sort();

const vitestBin = join(root, 'node_modules', 'vitest', 'vitest.mjs');

function commandFor(name) {
  const file = join('examples', name);
  if (name.endsWith('.test.ts')) {
    return [process.execPath, [vitestBin, 'run', '--config', 'vitest.staging.config.ts', file]];
  }
  // tsx as a loader: it honours tsconfig "paths", so `import 'payinout'` resolves to src/ (no build).
  return [process.execPath, ['--import', 'tsx', file]];
}

function run(name) {
  return new Promise((resolve) => {
    const [command, args] = commandFor(name);
    const started = Date.now();
    const child = spawn(command, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => {
      output += `\n(killed after ${TIMEOUT_MS} ms)`;
      child.kill('SIGKILL');
    }, TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ name, ok: code === 0, code: code ?? signal, ms: Date.now() - started, output });
    });
  });
}

if (files.length === 0) {
  console.error(`examples: nothing matches '${filter}'`);
  process.exit(1);
}

const results = [];
for (const name of files) {
  const result = await run(name);
  results.push(result);
  const mark = result.ok ? 'ok  ' : 'FAIL';
  console.log(`${mark} ${name} (${result.ms} ms)`);
  if (!result.ok) {
    console.log(result.output.replace(/^/gm, '     | '));
    console.log(`     exit ${result.code}`);
  }
}
const failed = results.filter((r) => !r.ok).length;
console.log(`examples: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
