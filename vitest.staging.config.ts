import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

/**
 * `npm run test:staging`: the merchant-style integration suite in examples/. Against staging
 * when PAYINOUT_BASE_URL, PAYINOUT_USERNAME, PAYINOUT_PASSWORD and PAYINOUT_TOKEN are set,
 * otherwise against the in-process simulator (scripts/run-examples.mjs runs it that way).
 */
export default defineConfig({
  resolve: {
    // The examples import 'payinout' as a merchant would; point it at the sources (no build needed).
    alias: [
      { find: /^payinout\/testing$/, replacement: src('testing/index.ts') },
      { find: /^payinout\/redis$/, replacement: src('redis/index.ts') },
      { find: /^payinout\/bullmq$/, replacement: src('bullmq/index.ts') },
      { find: /^payinout$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['examples/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    allowOnly: false,
  },
});
