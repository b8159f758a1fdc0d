import { defineConfig } from 'tsup';

const entry = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'redis/index': 'src/redis/index.ts',
};

export default defineConfig([
  // ESM: dependencies stay external so the merchant's bundler dedupes ky and zod.
  {
    // The CLI is ESM only: package.json bin points at dist/cli.js.
    entry: { ...entry, cli: 'src/cli.ts' },
    format: ['esm'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    splitting: true,
    treeshake: true,
  },
  // CJS: ky is ESM-only, so it is bundled into the CommonJS build; without this a
  // require() consumer fails at runtime with "ky.default.create is not a function".
  {
    entry,
    format: ['cjs'],
    dts: true,
    sourcemap: true,
    target: 'node20',
    noExternal: ['ky'],
    // import.meta.url (testing/msw.ts loads the optional msw peer lazily) in CommonJS.
    shims: true,
    treeshake: true,
  },
]);
