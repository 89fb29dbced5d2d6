import { defineConfig } from '@playwright/test';

/** Journeys against the real server (PGlite, demo data) in Debian's Chromium. */
export const PORT = Number(process.env.E2E_PORT ?? 8181);
export const DEMO_PASSWORD = 'e2e-demo-password';

const reporters: Array<[string] | [string, Record<string, unknown>]> = [['list']];
if (process.env.E2E_JSON) reporters.push(['json', { outputFile: process.env.E2E_JSON }]);

export default defineConfig({
  testDir: './tests',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: reporters as never,
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    locale: 'en-US',
    reducedMotion: 'reduce',
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    // The log goes to a file that scripts/e2e.sh searches for credentials once the journeys are done.
    command: `node --import tsx apps/server/src/server.ts > "${process.env.E2E_SERVER_LOG ?? '/dev/null'}"`,
    cwd: '..',
    url: `http://127.0.0.1:${PORT}/api/health`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR ?? '/tmp/palisade-e2e',
      DEMO_PASSWORD,
      // Every request is logged, so the search covers every address the journeys loaded.
      LOG_LEVEL: 'info',
      RATE_LIMIT_MAX: '1000',
      // The journeys read mailed links from the dev outbox (as the platform administrator).
      DEV_OUTBOX: 'true',
    },
  },
});
