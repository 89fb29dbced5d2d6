import { configDefaults, defineConfig } from 'vitest/config';

/** What both server projects share. */
const SERVER = {
  root: 'apps/server',
  // The migrated database each file clones (a PGlite dump, a PostgreSQL template), built once per run.
  globalSetup: ['test/global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};
/** The server's test files that replace a module with vi.mock: they run isolated (server-mocked). */
const MOCKING = ['src/modules/session/sign-in-timing.test.ts'];

/** One Vitest run covers every workspace; `--project` picks one (the server's files: `--project server --project server-mocked`). */
export default defineConfig({
  test: {
    // At most two files at a time, in every project: this machine's two cores, and PGlite instances are heavy (≈3 s
    // and 300 MB each) on a runner with more.
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
      // The server: every file builds its own app on its own database (test/helper.ts), so the files of a worker
      // share the modules they import instead of evaluating the whole server again per file (≈3 s each: the pass
      // takes 3½ minutes instead of 6). A file that replaces a module (vi.mock) needs them fresh: it is listed in
      // MOCKING and runs in server-mocked, isolated.
      {
        test: {
          ...SERVER,
          name: 'server',
          include: ['src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...MOCKING],
          isolate: false,
        },
      },
      { test: { ...SERVER, name: 'server-mocked', include: MOCKING } },
    ],
  },
});
