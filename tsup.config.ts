import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'node/index': 'src/node/index.ts',
  'testing/index': 'src/testing/index.ts',
  'redis/index': 'src/redis/index.ts',
  'bullmq/index': 'src/bullmq/index.ts',
};

/** Filled by both builds (the CJS one also inlines tsup's import.meta.url shim). */
const bundledPackages = new Set<string>();

/**
 * Writes the license of every package whose code esbuild bundled into dist (zod, tsup's CJS
 * shim) to THIRD_PARTY_NOTICES.md in the output folder: MIT asks that its notice travel with the
 * code, and zod's sources carry no banner. The list comes from the builds' own metafiles, so a
 * newly bundled package cannot be missed.
 */
function thirdPartyNotices(): Plugin {
  return {
    name: 'third-party-notices',
    setup(build) {
      build.initialOptions.metafile = true;
      build.onEnd((result) => {
        for (const input of Object.keys(result.metafile?.inputs ?? {})) {
          const match = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
          if (match?.[1]) bundledPackages.add(match[1]);
        }
        const sections = [...bundledPackages].sort().map((name) => {
          const dir = join('node_modules', name);
          const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
          const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
          if (!file) throw new Error(`${name} is bundled into dist but ships no license file`);
          const text = readFileSync(join(dir, file), 'utf8').trim();
          const source = pkg.homepage ?? pkg.repository?.url ?? pkg.repository ?? '';
          return `## ${name} ${pkg.version} (${pkg.license})\n\n${source}\n\n\`\`\`\n${text}\n\`\`\``;
        });
        const intro = `# Third-party notices\n\nThe files in dist/ include code from these packages, under their licenses:\n`;
        const outdir = build.initialOptions.outdir ?? 'dist';
        mkdirSync(outdir, { recursive: true }); // tsup writes the bundles after this hook
        writeFileSync(join(outdir, 'THIRD_PARTY_NOTICES.md'), `${intro}\n${sections.join('\n\n')}\n`);
      });
    },
  };
}

/**
 * Node built-ins as the CLI's bundled libraries reach them. commander and cli-progress are
 * CommonJS inside the ESM CLI: esbuild turns their `require('events')` into a `__require` that
 * throws in ESM ("Dynamic require of events is not supported"), so each such require goes through
 * a module that imports the built-in instead; no `createRequire` banner, which would reach the
 * library entries that share chunks with the CLI. csv-parse imports `stream` unprefixed: every
 * built-in leaves with its `node:` prefix, as the package check asks.
 */
function nodeBuiltins(): Plugin {
  const builtin = new RegExp(`^(?:node:)?(?:${builtinModules.join('|')})$`);
  return {
    name: 'node-builtins',
    setup(build) {
      build.onResolve({ filter: builtin }, ({ path, kind }) => {
        const name = path.replace(/^node:/, '');
        if (kind === 'require-call') return { path: name, namespace: 'builtin-require' };
        return path.startsWith('node:') ? undefined : { path: `node:${name}`, external: true };
      });
      build.onResolve({ filter: /^builtin-import:/ }, ({ path }) => ({
        path: path.slice('builtin-import:'.length),
        namespace: 'builtin-import',
      }));
      build.onLoad({ filter: /.*/, namespace: 'builtin-require' }, ({ path }) => ({
        contents: `module.exports = require('builtin-import:${path}').default;`,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'builtin-import' }, ({ path }) => ({
        contents: `export { default } from 'node:${path}';`,
        loader: 'js',
      }));
    },
  };
}

/**
 * zod is bundled (tree-shaken) into dist: `import('payinout')` then parses one small file set
 * instead of zod/mini's 40+ locale modules (docs/performance.md, "Package"). The client sends
 * with `fetch` or node:http directly (src/core/sender.ts, src/node/sender.ts): no HTTP library. zod stays a dependency for the .d.ts types; zod 4 checks schemas by their traits,
 * so payinout's schemas still compose with the merchant's own zod.
 *
 * Not minified: a stack trace names real functions and lines (`at PayInResource.create
 * (dist/chunk-….js:2513:28)`), and esbuild's `// src/core/transport.ts` markers say where each
 * part came from; minifying saved no import time (measured). So no source maps ship either.
 * No keepNames: its `__name()` call on every function and class cost a merchant's bundle of
 * `PaymentClient` 4.6 KB gzipped and kept unused classes from being tree-shaken. Class names
 * survive without it: the one clash between bundled modules (the node entry's PaymentClient)
 * restores its name itself, error classes carry literal names and brands, and
 * scripts/check-package.mjs fails if an exported class's `name` differs from its export name.
 * `node:` prefixes stay, so bundlers and runtimes see built-ins as built-ins.
 */
const shared: Options = {
  dts: true,
  sourcemap: false,
  target: 'node20',
  treeshake: true,
  minify: false,
  keepNames: false,
  removeNodeProtocol: false,
  noExternal: ['zod'],
  banner: {
    js: '/*! payinout (MIT). Includes third-party code: licenses in payinout/dist/THIRD_PARTY_NOTICES.md */',
  },
};

/**
 * zod's global registry (used by `.meta()`/`.describe()`, which only the OpenAPI builder and the
 * simulator reach) is created by a bare top-level statement. In dist it sits in the chunk every
 * entry shares, where a merchant's bundler must keep it as a side effect, with the registry class
 * it builds: 0.23 KB gzipped of a bundle of `PaymentClient` (measured 2026-11-27). The same
 * creation as a pure expression behaves the same wherever it is used and can be dropped where it
 * is not. The build fails if zod's text changes, rather than ship the side effect silently.
 */
function pureZodRegistry(): Plugin {
  const statement =
    '(_a = globalThis).__zod_globalRegistry ?? (_a.__zod_globalRegistry = registry());\n' +
    'export const globalRegistry = globalThis.__zod_globalRegistry;';
  const pure =
    'export const globalRegistry = /* @__PURE__ */ (() => (_a = globalThis).__zod_globalRegistry ?? (_a.__zod_globalRegistry = registry()))();';
  return {
    name: 'pure-zod-registry',
    setup(build) {
      build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/]registries\.js$/ }, ({ path }) => {
        const text = readFileSync(path, 'utf8');
        if (!text.includes(statement)) {
          throw new Error(
            `${path}: zod's global registry is no longer created as pureZodRegistry expects; update it`,
          );
        }
        return { contents: text.replace(statement, pure), loader: 'js' };
      });
    },
  };
}

/**
 * The CLI's own libraries (commander, csv-parse, csv-stringify, cli-progress and what they use)
 * are devDependencies, bundled into the CLI's chunks: `npm install payinout` then adds zod alone
 * to a merchant's production tree, for a CLI most backends never run, and `npx payinout` still
 * works from that install. tsup bundles whatever is not a dependency or peer, so a library a new
 * CLI command imports is bundled too once it is a devDependency; scripts/check-package.mjs fails
 * if dist imports any package besides the optional peers, or the install tree holds more than
 * payinout and zod. Their licenses reach THIRD_PARTY_NOTICES.md like zod's.
 */
const CLI_LIBRARIES = ['commander', 'csv-parse', 'csv-stringify', 'cli-progress'];

export default defineConfig([
  // The CLI is ESM only: package.json bin points at dist/cli.js.
  {
    ...shared,
    entry: { ...entry, cli: 'src/cli/index.ts' },
    format: ['esm'],
    clean: true,
    splitting: true,
    noExternal: [...(shared.noExternal ?? []), ...CLI_LIBRARIES],
    esbuildPlugins: [nodeBuiltins(), pureZodRegistry(), thirdPartyNotices()],
  },
  // import.meta.url (testing/msw.ts loads the optional msw peer lazily) needs a shim in CommonJS.
  {
    ...shared,
    entry,
    format: ['cjs'],
    shims: true,
    splitting: true,
    esbuildPlugins: [pureZodRegistry(), thirdPartyNotices()],
  },
]);
