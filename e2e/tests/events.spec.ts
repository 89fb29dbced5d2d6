import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test('an administrator sees their own change with before and after values in /events/admin', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin@globex.example');
  await page.goto('/users/list');
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill('anna');
  await page
    .getByRole('main')
    .getByRole('link', { name: /^Anna / })
    .first()
    .click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill(`Anneliese${stamp}`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: new RegExp(`^Anneliese${stamp}`) })).toBeVisible();

  await page.goto('/events/admin');
  await expect(page.getByRole('heading', { name: 'Admin events' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Actor' }).fill('admin@globex.example');
  await page
    .getByRole('button', { name: /^Details of User updated/ })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: 'Event details' });
  const changed = drawer.getByRole('table', { name: 'Changed fields' });
  const row = changed.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'firstname' }) });
  await expect(row).toContainText('Anna');
  await expect(row).toContainText(`Anneliese${stamp}`);
});
