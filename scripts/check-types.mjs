#!/usr/bin/env node
/**
 * Type tests against the package as published, run by `npm test` after the build: the corpus in
 * test/types/ (mistakes.ts and queue-mistakes.ts — payinout/bullmq's `enqueuePayOuts`, with bullmq
 * installed beside the package — realistic mistakes that must not compile, each marked
 * `@ts-expect-error`; valid.ts: correct usage for every country) is compiled by `tsc --strict`
 * (without msw with skipLibCheck off, so the shipped .d.ts files are checked too) in consumer projects that install
 * the packed tarball: moduleResolution node16 from ESM and CommonJS, bundler with module esnext and
 * preserve, and nodenext — each with and without msw installed (msw is an optional peer:
 * payinout/testing must type-check without it), with `strict` and `exactOptionalPropertyTypes`.
 * Each configuration runs under every TypeScript the repository has: 5.9 (`typescript`) and 7, the
 * native compiler (`typescript-7`, an alias of typescript@7, or TYPESCRIPT_7=/path/to/its/tsc).
 */
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { checkResolutionMatrix } from './types-resolution.mjs';

const root = resolve(import.meta.dirname, '..');
const corpus = join(root, 'test', 'types');
/** The compilers to run: each configuration is checked by every one of them. */
const COMPILERS = [
  { name: 'TS 5.9', tsc: join(root, 'node_modules', 'typescript', 'bin', 'tsc') },
  {
    name: 'TS 7',
    tsc: process.env.TYPESCRIPT_7 ?? join(root, 'node_modules', 'typescript-7', 'bin', 'tsc'),
  },
].filter((compiler) => {
  if (existsSync(compiler.tsc)) return true;
  // Missing TS 7 fails under CI; elsewhere it is one line saying what to install.
  const line = `${compiler.name} not found at ${compiler.tsc}: npm install (typescript-7 is a devDependency) or set TYPESCRIPT_7`;
  if (process.env.CI) throw new Error(line);
  console.log(`  - ${line}; skipped`);
  return false;
});
for (const compiler of COMPILERS)
  compiler.version = execFileSync('node', [compiler.tsc, '--version'], { encoding: 'utf8' }).trim();
const run = (cmd, args, cwd) =>
  execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });

/** The files of mistakes that must not compile: the client's, and the queue's (payinout/bullmq). */
const MISTAKE_FILES = ['mistakes.ts', 'queue-mistakes.ts'];
const mistakes = MISTAKE_FILES.reduce(
  (n, file) =>
    n + (readFileSync(join(corpus, file), 'utf8').match(/^\s*\/\/ @ts-expect-error/gm) ?? []).length,
  0,
);
const work = mkdtempSync(join(tmpdir(), 'payinout-types-'));
console.log(`type tests against the packed package (work dir ${work}); ${mistakes} mistakes in the corpus`);

const tarball = join(
  work,
  run('npm', ['pack', '--silent', '--pack-destination', work], root).trim().split('\n').pop(),
);
// One install of the tarball, as a merchant would (no msw: an optional peer is not installed).
const base = join(work, 'base');
mkdirSync(base);
writeFileSync(
  join(base, 'package.json'),
  JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }),
);
run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', tarball], base);
symlinkSync(join(root, 'node_modules', '@types'), join(base, 'node_modules', '@types'), 'dir');
// payinout/bullmq's peer, beside the package as a merchant using the queue installs it
// (queue-mistakes.ts; the package's own bullmq declarations import it).
symlinkSync(join(root, 'node_modules', 'bullmq'), join(base, 'node_modules', 'bullmq'), 'dir');
if (readdirSync(join(base, 'node_modules')).includes('msw'))
  throw new Error('msw was installed with the tarball');

/** A project root whose node_modules is the base install, plus msw when asked. */
function projectRoot(withMsw) {
  const dir = join(work, withMsw ? 'with-msw' : 'without-msw');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  for (const entry of readdirSync(join(base, 'node_modules'))) {
    symlinkSync(join(base, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  if (withMsw) symlinkSync(join(root, 'node_modules', 'msw'), join(dir, 'node_modules', 'msw'), 'dir');
  return dir;
}

const CONFIGS = [
  { name: 'node16 ESM', type: 'module', module: 'node16', moduleResolution: 'node16' },
  { name: 'node16 CJS', type: 'commonjs', module: 'node16', moduleResolution: 'node16' },
  { name: 'bundler (module esnext)', type: 'module', module: 'esnext', moduleResolution: 'bundler' },
  { name: 'bundler (module preserve)', type: 'commonjs', module: 'preserve', moduleResolution: 'bundler' },
  { name: 'nodenext ESM', type: 'module', module: 'nodenext', moduleResolution: 'nodenext' },
];

let failed = 0;
let total = 0;
/** Compiles `dir` with each compiler; `describe(out)` says what a failure means. */
function compileEverywhere(dir, name, passed, describeFailure) {
  for (const compiler of COMPILERS) {
    total++;
    try {
      run('node', [compiler.tsc, '-p', 'tsconfig.json'], dir);
      console.log(`  ✓ ${compiler.version}, ${name}: ${passed}`);
    } catch (error) {
      failed++;
      const out = `${error.stdout ?? ''}${error.stderr ?? ''}`;
      console.log(`  ✗ ${compiler.version}, ${name}: ${describeFailure(out)}\n${out}`);
    }
  }
}

for (const withMsw of [false, true]) {
  const parent = projectRoot(withMsw);
  for (const config of CONFIGS) {
    const name = `${config.name}, ${withMsw ? 'with' : 'without'} msw`;
    const dir = join(parent, config.name.replace(/\W+/g, '-'));
    mkdirSync(dir);
    const files = ['valid.ts', ...MISTAKE_FILES, ...(withMsw ? ['valid-msw.ts'] : [])];
    for (const file of files) copyFileSync(join(corpus, file), join(dir, file));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'c', private: true, type: config.type }));
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: config.module,
          moduleResolution: config.moduleResolution,
          target: 'es2022',
          lib: ['es2023', 'dom'],
          strict: true,
          exactOptionalPropertyTypes: true,
          noEmit: true,
          // Without msw the shipped .d.ts files are checked too (skipLibCheck off): none may import
          // msw. With msw they are skipped, as msw's own declarations do not all compile as CommonJS.
          skipLibCheck: withMsw,
          types: ['node'],
        },
        files,
      }),
    );
    compileEverywhere(dir, name, `${mistakes}/${mistakes} mistakes rejected, correct usage clean`, (out) => {
      // An unused @ts-expect-error in either file (queue-mistakes.ts ends in mistakes.ts too).
      const compiled = (out.match(/mistakes\.ts\(\d+,\d+\): error TS2578/g) ?? []).length;
      return `${mistakes - compiled}/${mistakes} mistakes rejected`;
    });
  }
}
// Workers / Edge: no @types/node at all, the shipped declarations checked (skipLibCheck off).
{
  const dir = join(work, 'edge');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  for (const entry of readdirSync(join(base, 'node_modules'))) {
    if (entry !== '@types') symlinkSync(join(base, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  copyFileSync(join(corpus, 'valid-edge.ts'), join(dir, 'valid-edge.ts'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'c', private: true, type: 'module' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module: 'esnext',
        moduleResolution: 'bundler',
        target: 'es2022',
        lib: ['es2023', 'dom'],
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['valid-edge.ts'],
    }),
  );
  compileEverywhere(
    dir,
    'Workers/Edge (no @types/node, skipLibCheck off)',
    'the root entry compiles',
    () => 'the root entry does not compile',
  );
}
// The first line of each error in first-lines.ts: `// first line: TEXT` (its start) or
// `// first line ends: TEXT` (its end) above the line it is on.
{
  const dir = join(work, 'first-lines');
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  for (const entry of readdirSync(join(base, 'node_modules'))) {
    symlinkSync(join(base, 'node_modules', entry), join(dir, 'node_modules', entry));
  }
  const source = readFileSync(join(corpus, 'first-lines.ts'), 'utf8');
  writeFileSync(join(dir, 'first-lines.ts'), source);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'c', private: true, type: 'module' }));
  const compilerOptions = {
    module: 'nodenext',
    moduleResolution: 'nodenext',
    target: 'es2022',
    lib: ['es2023', 'dom'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    types: ['node'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['first-lines.ts'] }));
  const expected = new Map();
  source.split('\n').forEach((line, i) => {
    const marker = /^\s*\/\/ first line( ends)?: (.+)$/.exec(line);
    if (marker) expected.set(i + 2, { text: marker[2].trim(), ends: Boolean(marker[1]) });
  });
  for (const compiler of COMPILERS) {
    total++;
    let out = '';
    try {
      run('node', [compiler.tsc, '-p', 'tsconfig.json'], dir);
    } catch (error) {
      out = `${error.stdout ?? ''}${error.stderr ?? ''}`;
    }
    const got = new Map(
      [...out.matchAll(/^first-lines\.ts\((\d+),\d+\): error TS\d+: (.*)$/gm)].map((m) => [
        Number(m[1]),
        m[2],
      ]),
    );
    const matches = (line, { text, ends }) =>
      ends ? got.get(line)?.endsWith(text) : got.get(line)?.startsWith(text);
    const wrong = [...expected].filter(([line, marker]) => !matches(line, marker));
    const extra = [...got.keys()].filter((line) => !expected.has(line));
    if (wrong.length || extra.length) {
      failed++;
      const lines = wrong.map(
        ([line, { text, ends }]) =>
          `line ${line}: expected "${ends ? '…' : ''}${text}${ends ? '' : '…'}", got "${got.get(line) ?? 'no error'}"`,
      );
      console.log(
        `  ✗ ${compiler.version}, first error lines:\n    ${[...lines, ...extra.map((l) => `line ${l}: unexpected "${got.get(l)}"`)].join('\n    ')}`,
      );
    } else
      console.log(
        `  ✓ ${compiler.version}, first error lines: ${expected.size} mistakes name their field's values`,
      );
  }
}
// attw's checks under TypeScript 7 (attw itself runs on its bundled TypeScript 5: TS 7's package
// has no compiler API it can load; scripts/types-resolution.mjs says why and what each check is).
for (const compiler of COMPILERS.filter((c) => c.name === 'TS 7')) {
  for (const result of await checkResolutionMatrix({ root, tarball, work, tsc: compiler.tsc })) {
    total++;
    if (result.ok) console.log(`  ✓ ${compiler.version}, attw's checks, ${result.name}: ${result.detail}`);
    else {
      failed++;
      console.log(`  ✗ ${compiler.version}, attw's checks, ${result.name}:\n${result.detail}`);
    }
  }
}
rmSync(work, { recursive: true, force: true });
console.log(`type tests: ${total - failed} of ${total} configurations passed`);
process.exit(failed ? 1 : 0);
