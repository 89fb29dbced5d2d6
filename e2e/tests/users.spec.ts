import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

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
