import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

test('an administrator adds a user, finds it by search, edits it and deletes it', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const username = `journey-${stamp}@acme.example`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/users/list');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();

  await page.getByRole('main').getByRole('link', { name: 'Add user' }).click();
  await expect(page).toHaveURL(/\/users\/add/);
  await page.getByRole('textbox', { name: 'Username', exact: true }).fill(username);
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Journey');
  await page.getByRole('textbox', { name: 'Last name', exact: true }).fill('Tester');
  await page.getByRole('main').getByRole('button', { name: 'Add user' }).click();
  await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}$/);

  await page.goto('/users/list');
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill(`journey-${stamp}`);
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toBeVisible();
  await expect(page.getByRole('row')).toHaveCount(2); // header + the one match

  await row.getByRole('link', { name: 'Journey Tester', exact: true }).click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill('Edited');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Edited Tester' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/users\/list/);
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill(`journey-${stamp}`);
  await expect(page.getByText('No users match your search.')).toBeVisible();
});

test('an administrator disables two users at once, confirming the count and a reason, then undoes it from the toast', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const token = await apiSignIn(page, 'admin@acme.example');
  for (const name of ['one', 'two']) {
    const created = await page.request.post('/api/subscriber/user/acme', {
      headers: { 'X-Auth-Token': token },
      data: { username: `bulk-${stamp}-${name}@acme.example`, firstname: 'Bulk', lastname: name },
    });
    expect(created.status()).toBe(201);
  }
  await signIn(page, 'admin@acme.example');
  await page.goto(`/users/list?q=bulk-${stamp}`);
  await expect(page.getByRole('row')).toHaveCount(3);
  await page.getByRole('checkbox', { name: 'Select all users on this page' }).check();
  await page.getByRole('button', { name: 'Bulk actions' }).click();
  await page.getByRole('menuitem', { name: 'Disable accounts…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Disable accounts?' });
  await expect(dialog).toContainText('This changes the 2 selected users.');
  await dialog.getByRole('button', { name: 'Change 2 users' }).click();
  await expect(dialog.getByText('This field is required.')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Contractors left');
  await dialog.getByRole('button', { name: 'Change 2 users' }).click();

  const toast = page.getByRole('alert').filter({ hasText: '2 users updated.' });
  await expect(toast).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Disabled' })).toHaveCount(2);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByText('Change undone for 2 users.')).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Disabled' })).toHaveCount(0);
});
