import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

/**
 * The telemetry journey of issue 12: a gateway runs the traffic generator (apps/gateway --simulate-traffic) →
 * /live shows its decisions arriving, second by second → a destination drills down to its decision events; the
 * demo's week of history on the internet-access dashboard drills from a category's bar to its events.
 */
test('a gateway generating traffic moves /live, and charts drill down to the matching events', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const created = await page.request.post('/api/cybernodes/acme', {
    headers,
    data: { name: `Traffic ${Date.now().toString(36)}`, kind: 'cybernode', region: 'Lab' },
  });
  expect(created.status()).toBe(201);
  const { enrolmentToken } = (await created.json()) as { enrolmentToken: { token: string } };

  await signIn(page, 'admin@acme.example');
  await page.goto('/live');
  await expect(page.getByRole('heading', { name: 'Live traffic' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No requests yet.')).toBeVisible();

  const dir = mkdtempSync(join(tmpdir(), 'palisade-e2e-traffic-'));
  let agent: ChildProcess | null = null;
  let log = '';
  try {
    agent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/gateway/src/main.ts',
        '--server',
        baseURL as string,
        '--dir',
        dir,
        '--simulate-traffic',
        '40',
      ],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, PALISADE_GATEWAY_TOKEN: enrolmentToken.token },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    agent.stderr?.on('data', (chunk) => {
      log += chunk;
    });

    // The generator's decisions arrive: the destinations list fills, second by second.
    const destinations = page.getByRole('region', { name: 'Top destinations' });
    await expect(page.getByText('No requests yet.'), log).toBeHidden({ timeout: 45_000 });
    const first = destinations.getByRole('button', { name: /show the events/ }).first();
    await expect(first).toBeVisible();
    const destination = ((await first.getAttribute('aria-label')) ?? '').split(':')[0];
    await first.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('cell', { name: destination }).first()).toBeVisible({ timeout: 15_000 });
    await drawer.getByRole('button', { name: 'Close' }).click();
  } finally {
    agent?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }

  // The demo's week: a category's bar on the internet-access dashboard opens its decisions.
  await page.goto('/main-dashboards/SIADashboard?range=7d');
  const categories = page.getByRole('region', { name: /categor/i }).first();
  const bar = categories.getByRole('button', { name: /show the events/ }).first();
  await expect(bar).toBeVisible({ timeout: 15_000 });
  const category = ((await bar.getAttribute('aria-label')) ?? '').split(':')[0];
  await bar.click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText(category);
  await expect(drawer.getByRole('table')).toBeVisible({ timeout: 15_000 });
  // Its decisions, one row each under the header.
  await expect(drawer.getByRole('row').nth(1)).toBeVisible();
});
