import { defineConfig } from 'vitest/config';

// The docs-site check needs `npm run docs` first and a Chromium binary, so it runs only via
// `npm run test:docs`; the file suffix keeps it out of the default `test/**/*.test.ts` run.
export default defineConfig({
  test: {
    include: ['test/docs/**/*.docs.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    allowOnly: !process.env.CI,
  },
});
