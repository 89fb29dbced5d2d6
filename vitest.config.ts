import { defineConfig } from 'vitest/config';

/** One Vitest run covers every workspace; `--project` picks one. */
export default defineConfig({
  test: {
    // Two files at a time, in every project: Vitest's default is a worker fewer than the cores (one here), while the
    // files wait on timers, I/O and the database often enough that two keep both cores busy. (PGlite instances are
    // heavy, ≈3 s and 300 MB each: no more than two.)
    maxWorkers: 2,
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
        },
      },
    ],
  },
});
