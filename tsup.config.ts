import { defineConfig, type Options } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'redis/index': 'src/redis/index.ts',
};

/**
 * ky and zod are bundled (tree-shaken) into dist: `import('payinout')` then parses one small
 * file set instead of zod/mini's 40+ locale modules and ky's 20 files — about 55 ms instead of
 * ~160 ms (docs/performance.md). zod stays a dependency for the .d.ts types; zod 4 checks
 * schemas by their traits, so payinout's schemas still compose with the merchant's own zod.
 * keepNames keeps class names (error.constructor.name) readable after minification.
 */
const shared: Options = {
  dts: true,
  sourcemap: true,
  target: 'node20',
  treeshake: true,
  minify: true,
  keepNames: true,
  noExternal: ['ky', 'zod'],
};

export default defineConfig([
  // The CLI is ESM only: package.json bin points at dist/cli.js.
  { ...shared, entry: { ...entry, cli: 'src/cli/index.ts' }, format: ['esm'], clean: true, splitting: true },
  // import.meta.url (testing/msw.ts loads the optional msw peer lazily) needs a shim in CommonJS.
  { ...shared, entry, format: ['cjs'], shims: true },
]);
