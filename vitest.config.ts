import { defineConfig } from 'vitest/config';

/** One Vitest run covers every workspace; `--project` picks one. */
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'] } },
      { test: { name: 'policy-engine', root: 'packages/policy-engine', include: ['src/**/*.test.ts'] } },
      // The gateway artefacts, checked by the real tools where they are installed (scripts/net-tools.sh).
      {
        test: {
          name: 'gateway-config',
          root: 'packages/gateway-config',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      // The reference gateway (apps/gateway); its data-plane test needs root, ip netns and the tools.
      {
        test: {
          name: 'gateway',
          root: 'apps/gateway',
          include: ['src/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
        },
      },
      // The test runner's own scripts (the closing line of npm test).
      { test: { name: 'scripts', root: 'scripts', include: ['*.test.mjs'] } },
      'apps/web/vite.config.ts',
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['src/**/*.test.ts'],
          // The migrated database each file clones (a PGlite dump, a PostgreSQL template), built once per run.
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // PGlite instances are heavy (≈3 s, 300 MB each): one file at a time per worker, two workers.
          maxWorkers: 2,
        },
      },
    ],
  },
});
