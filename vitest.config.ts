import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Fail loudly instead of silently passing when a suite is skipped in CI.
    allowOnly: !process.env.CI,
    projects: [
      {
        extends: true,
        // As Node users get it: clients send over node:http (test/setup/node-sender.ts).
        test: { name: 'node', include: ['test/**/*.test.ts'], setupFiles: ['test/setup/node-sender.ts'] },
      },
      {
        extends: true,
        // As Bun, Deno, Workers and clients given a `fetch` get it: `fetch` (src/core/sender.ts). The suites that
        // exercise the transport run again on it.
        test: {
          name: 'fetch',
          include: [
            'test/faults/**/*.test.ts',
            'test/core/**/*.test.ts',
            'test/resources/**/*.test.ts',
            'test/tracing/calls.test.ts',
          ],
        },
      },
    ],
  },
});
