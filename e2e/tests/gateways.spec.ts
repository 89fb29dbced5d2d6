import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

/**
 * The gateway journey of issue 10: an administrator adds a site gateway → the reference gateway (apps/gateway,
 * without --apply) enrols with the one-time token and comes online → a policy is pushed → the view shows the new
 * version enforced.
 */
test('add a gateway, see it come online, push a policy and see the new version enforced', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const name = `Edge ${Date.now().toString(36)}`;
  await signIn(page, 'admin@acme.example');

  await page.goto('/cybernodes/list');
  await page.getByRole('button', { name: 'Add gateway' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add gateway' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Site gateway (CGW)' }).click();
  await dialog.getByRole('textbox', { name: 'Site / location' }).fill('Leipzig');
  await dialog.getByRole('button', { name: 'Add gateway' }).click();
  const enrol = page.getByRole('dialog', { name: 'Gateway added: enrol it' });
  const token = ((await enrol.getByLabel('Enrolment token').textContent()) ?? '').trim();
  expect(token).toMatch(/^gwe_/);
  await expect(enrol.getByLabel('Install command')).toHaveText(
    `npm run gateway -- --server ${baseURL} --token ${token}`,
  );
  await enrol.getByRole('button', { name: 'I have stored it' }).click();

  // The gateway is pending until the reference gateway enrols with the token.
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(/\/cybernodes\/view\?id=/);
  await expect(page.getByText('Waiting for enrolment')).toBeVisible();

  const dir = mkdtempSync(join(tmpdir(), 'palisade-e2e-gw-'));
  let agent: ChildProcess | null = null;
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
        '--wait',
        '30',
      ],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, PALISADE_GATEWAY_TOKEN: token },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let log = '';
    agent.stderr?.on('data', (chunk) => {
      log += chunk;
    });

    // Online, enforcing the current policy (the view refreshes every 5 s).
    const overview = page.getByRole('main');
    await expect(overview.getByText('Online', { exact: true }).first(), log).toBeVisible({ timeout: 30_000 });
    await expect(overview.getByText('Enforces the current policy').first()).toBeVisible({ timeout: 30_000 });
    const enforced = overview.getByRole('definition').filter({ hasText: /^[0-9a-f]{16}\.[0-9a-f]{8}$/ });
    const before = (await enforced.first().textContent())?.trim();

    // An administrator pushes a policy: the gateway takes the new bundle and reports it.
    const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
    const saved = await page.request.post('/api/policy/acme', {
      headers,
      data: {
        type: 'other',
        name: `Block for ${name}`,
        rules: [
          { name: 'Block', type: 'dmn', action: 'block', url: `${Date.now().toString(36)}.e2e.example` },
        ],
      },
    });
    expect(saved.status()).toBe(201);
    await expect
      .poll(async () => (await enforced.first().textContent())?.trim(), { timeout: 30_000 })
      .not.toBe(before);
    await expect(overview.getByText('Enforces the current policy').first()).toBeVisible({ timeout: 15_000 });
  } finally {
    agent?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }
});
