/**
 * attw's checks, under TypeScript 7. `attw` (scripts/check-package.mjs) loads the TypeScript
 * compiler API, and its core bundles TypeScript 5 (5.6): TypeScript 7's npm package has no such
 * API (`require('typescript')` of 7.0 gives `{ version, versionMajorMinor }` only; its API is
 * `typescript/unstable/*`, a different one), so attw cannot run on TS 7. This is its TS 7
 * counterpart: for every code entry of package.json "exports" × each resolution attw checks, a
 * consumer compiled with TS 7's `tsc` against the installed tarball, failing on
 * - a resolution failure (TS2307) or missing types (TS7016: the entry resolves to untyped JS);
 * - masquerading types: the declaration file tsc resolved (from `--traceResolution`) has another
 *   module format than the JavaScript the runtime loads for the same import (attw's FalseCJS /
 *   FalseESM), or a CommonJS consumer's `require` reaches ESM types (TS1479);
 * - named exports that differ: a runtime export the types lack, or a typed value export the
 *   runtime does not have (attw's NamedExports), as a type error on the consumer's line.
 * node10 is not in the matrix: TypeScript 7 removed `moduleResolution: node10` (TS5108), so no
 * TS 7 project resolves that way; attw covers it under TS 5.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

/** The optional peers an entry imports at load: installed so the runtime can list its exports. */
const PEERS = ['bullmq', 'ioredis', 'redis', 'msw'];
const RESOLUTIONS = [
  { name: 'node16 from CJS', ext: 'cts', type: 'commonjs', module: 'node16', runtime: 'require' },
  { name: 'node16 from ESM', ext: 'mts', type: 'module', module: 'node16', runtime: 'import' },
  { name: 'bundler', ext: 'ts', type: 'module', module: 'esnext', runtime: 'bundler' },
];

/** 'cjs' or 'esm' for a .js/.cjs/.mjs file or its declaration, as Node and tsc decide it. */
function moduleFormat(file) {
  if (/\.(d\.)?cts$|\.cjs$/.test(file)) return 'cjs';
  if (/\.(d\.)?mts$|\.mjs$/.test(file)) return 'esm';
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest))
      return JSON.parse(readFileSync(manifest, 'utf8')).type === 'module' ? 'esm' : 'cjs';
  }
  return 'cjs';
}

/** What the runtime loads for each specifier: the file and its export names. */
async function runtimeExports(dir, specifiers, runtime) {
  if (runtime === 'bundler') {
    // A bundler resolves with the import condition and without node's: esbuild, platform neutral.
    const found = {};
    for (const spec of specifiers) {
      const result = await build({
        stdin: { contents: `export * from '${spec}';`, resolveDir: dir },
        bundle: true,
        write: false,
        metafile: true,
        format: 'esm',
        platform: 'neutral',
        mainFields: ['module', 'main'],
        external: [...PEERS, 'zod', 'node:*'],
        logLevel: 'silent',
        absWorkingDir: dir,
      });
      const entry = result.metafile.inputs['<stdin>'].imports.find((i) => i.original === spec);
      const output = Object.values(result.metafile.outputs)[0];
      found[spec] = { file: join(dir, entry.path), keys: output.exports };
    }
    return found;
  }
  const probe =
    runtime === 'require'
      ? `const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = { file: require.resolve(s), keys: Object.keys(require(s)) }; console.log(JSON.stringify(out));`
      : `import { fileURLToPath } from 'node:url'; const out = {}; for (const s of ${JSON.stringify(specifiers)}) out[s] = { file: fileURLToPath(import.meta.resolve(s)), keys: Object.keys(await import(s)) }; console.log(JSON.stringify(out));`;
  const file = join(dir, runtime === 'require' ? 'probe.cjs' : 'probe.mjs');
  writeFileSync(file, probe);
  return JSON.parse(execFileSync('node', [file], { cwd: dir, encoding: 'utf8' }));
}

/** A consumer of one entry: imports it the resolution's way and compares its value exports with the runtime's. */
function consumerSource(spec, ext, keys) {
  const importLine =
    ext === 'cts' ? `import entry = require('${spec}');` : `import * as entry from '${spec}';`;
  const runtimeNames = keys.length ? keys.map((k) => JSON.stringify(k)).join(' | ') : 'never';
  return `${importLine}
type RuntimeExports = ${runtimeNames};
type Untyped = Exclude<RuntimeExports, keyof typeof entry>;
type NotAtRuntime = Exclude<keyof typeof entry, RuntimeExports>;
// An error here lists the names: "Type '{}' is missing the following properties from type …: NAMES".
export const runtimeExportsWithoutTypes: { [K in Untyped]: K } = {};
export const typedExportsMissingAtRuntime: { [K in NotAtRuntime]: K } = {};
`;
}

/** The specifiers of every code entry of the package's "exports" (JSON and package.json are data). */
function entrySpecifiers(manifest) {
  return Object.keys(manifest.exports)
    .filter((subpath) => !subpath.endsWith('.json'))
    .map((subpath) => `${manifest.name}${subpath.slice(1)}`);
}

/**
 * Runs the matrix with one compiler against `tarball`, installed into its own project under
 * `work` with the optional peers beside it (linked from the repository `root`), so that the
 * runtime can load every entry and list its exports. Returns one result per resolution:
 * `{ name, ok, detail }`.
 */
export async function checkResolutionMatrix({ root, tarball, work, tsc }) {
  const project = join(work, 'resolution');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
  execFileSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', tarball],
    { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  for (const dependency of [...PEERS, '@types'])
    symlinkSync(join(root, 'node_modules', dependency), join(project, 'node_modules', dependency), 'dir');
  const manifest = JSON.parse(
    readFileSync(join(project, 'node_modules', 'payinout', 'package.json'), 'utf8'),
  );
  const specifiers = entrySpecifiers(manifest);
  const results = [];
  for (const resolution of RESOLUTIONS) {
    const dir = join(project, resolution.name.replace(/\W+/g, '-'));
    mkdirSync(dir);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'c', private: true, type: resolution.type }),
    );
    results.push(await checkResolution(dir, resolution, specifiers, tsc));
  }
  return results;
}

async function checkResolution(dir, resolution, specifiers, tsc) {
  const runtime = await runtimeExports(dir, specifiers, resolution.runtime);
  const files = specifiers.map((spec) => {
    const file = `consumer-${spec.replace(/\W+/g, '-')}.${resolution.ext}`;
    writeFileSync(join(dir, file), consumerSource(spec, resolution.ext, runtime[spec].keys));
    return file;
  });
  const compilerOptions = {
    module: resolution.module,
    moduleResolution: resolution.module === 'esnext' ? 'bundler' : resolution.module,
    target: 'es2022',
    lib: ['es2023', 'dom'],
    strict: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  let out = '';
  let errors = '';
  try {
    out = execFileSync('node', [tsc, '-p', 'tsconfig.json', '--traceResolution'], {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 28,
    });
  } catch (error) {
    out = `${error.stdout ?? ''}`;
    errors = out
      .split('\n')
      .filter((line) => /\): error TS\d+/.test(line))
      .join('\n');
  }
  const problems = errors ? [errors] : [];
  for (const spec of specifiers) {
    const resolved = new RegExp(`Module name '${spec}' was successfully resolved to '([^']+)'`).exec(
      out,
    )?.[1];
    if (!resolved) continue; // tsc's own error (TS2307 / TS7016) is in `errors`
    const types = moduleFormat(resolved);
    const js = moduleFormat(runtime[spec].file);
    if (types !== js)
      problems.push(
        `${spec}: types ${resolved} are ${types.toUpperCase()} but the runtime loads ${runtime[spec].file}, ${js.toUpperCase()} (masquerading as ${types.toUpperCase()})`,
      );
  }
  return {
    name: resolution.name,
    ok: problems.length === 0,
    detail: problems.length ? problems.join('\n') : `${specifiers.length} entries (${specifiers.join(', ')})`,
  };
}
