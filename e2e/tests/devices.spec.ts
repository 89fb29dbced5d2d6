import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

/**
 * Agentless enrolment end to end: an administrator sends a user an agentless link, the user opens it in a browser
 * of their own (no session) and registers that browser, and the administrator sees the device and the state
 * change; the link cannot be used twice.
 */
test('an agentless link registers a browser, which then shows under the user', async ({ page, browser }) => {
  const suffix = Date.now().toString(36);
  const username = `walker-${suffix}@acme.example`;
  await signIn(page, 'admin@acme.example');
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const created = await page.request.post('/api/subscriber/user/acme', {
    headers,
    data: { username, firstname: 'Wanda', lastname: `Walker ${suffix}` },
  });
  expect(created.status()).toBe(201);

  await page.goto('/users/agentless');
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  const row = page.getByRole('row').filter({ hasText: username });
  await expect(row.getByText('Not invited')).toBeVisible();
  await row.getByRole('button', { name: /Send agentless link to/ }).click();
  const modal = page.getByRole('dialog', { name: 'Send agentless access link' });
  await modal.getByRole('button', { name: 'Create link' }).click();
  const linkBox = page.getByRole('dialog', { name: 'Link created' });
  const link = ((await linkBox.getByLabel('Enrolment link', { exact: true }).textContent()) ?? '').trim();
  expect(link).toMatch(/\/verify\/wg\/pal_enr_/);
  // Every dialog's close button has a name for screen readers.
  await expect(linkBox.getByRole('button', { name: 'Close', exact: true })).toBeVisible();
  await linkBox.getByRole('button', { name: 'Done' }).click();
  await expect(row.getByText('Link pending')).toBeVisible();

  // The user, in a browser without a session.
  const userPage = await browser.newPage();
  await userPage.goto(new URL(link).pathname);
  await expect(userPage.getByRole('heading', { name: 'Register this browser' })).toBeVisible();
  await userPage.getByRole('button', { name: 'Register this browser' }).click();
  await expect(userPage.getByRole('heading', { name: 'This browser is registered' })).toBeVisible();
  // A one-off link: opened again, it is refused.
  await userPage.reload();
  await expect(userPage.getByRole('heading', { name: 'This enrolment link is not valid' })).toBeVisible();
  await userPage.close();

  await page.reload();
  await expect(row.getByText('Enrolled', { exact: true })).toBeVisible();
  await expect(row.getByRole('listitem').filter({ hasText: 'Chrome on Linux' })).toBeVisible();
});
