import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

test('a custom view-only role: its holder can read users but cannot change them (UI and API)', async ({
  page,
  browser,
}) => {
  const roleName = `User viewers ${Date.now().toString(36)}`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/users/roles');
  await page.getByRole('main').getByRole('button', { name: 'Add role' }).click();
  const editor = page.getByRole('dialog', { name: 'Add role' });
  await editor.getByRole('textbox', { name: 'Name', exact: true }).fill(roleName);
  await editor.getByRole('checkbox', { name: 'Users: view' }).check();
  await editor.getByRole('checkbox', { name: 'Dashboard: view' }).check();
  await editor.getByRole('button', { name: 'Add role' }).click();
  await expect(page.getByText(`Role ${roleName} created.`)).toBeVisible();

  await page.getByRole('tab', { name: 'Assignments' }).click();
  await page.getByLabel('Role of helpdesk@acme.example').selectOption({ label: roleName });
  await expect(page.getByText(`helpdesk@acme.example is now ${roleName}.`)).toBeVisible();

  // The holder, in a browser of their own.
  const holder = await browser.newPage();
  await signIn(holder, 'helpdesk@acme.example');
  await holder.goto('/users/list');
  await expect(holder.getByRole('heading', { name: 'Users' })).toBeVisible();
  await expect(holder.getByRole('main').getByRole('link', { name: /Anna/ }).first()).toBeVisible();
  await expect(holder.getByRole('link', { name: 'Add user' })).toHaveCount(0);
  await expect(holder.getByRole('button', { name: 'Import CSV' })).toHaveCount(0);

  const token = await apiSignIn(holder, 'helpdesk@acme.example');
  const headers = { 'x-auth-token': token };
  expect((await holder.request.get('/api/subscriber/user/acme?limit=1', { headers })).status()).toBe(200);
  const write = await holder.request.post('/api/subscriber/user/acme', {
    headers,
    data: { username: 'sneaky@acme.example', firstname: 'Sneaky', lastname: 'Write' },
  });
  expect(write.status()).toBe(403);
  await holder.close();
});
