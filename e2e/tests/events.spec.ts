import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

test('an administrator sees their own change with before and after values in /events/admin', async ({
  page,
}) => {
  // A user of its own, so the journey neither depends on the demo names nor races a list that is still filtering.
  const stamp = Date.now().toString(36);
  const lastname = `Eventful${stamp}`;
  await signIn(page, 'admin@globex.example');
  const created = await page.request.post('/api/subscriber/user/globex', {
    headers: { 'x-auth-token': await apiSignIn(page, 'admin@globex.example') },
    data: { username: `event-${stamp}@globex.example`, firstname: 'Anna', lastname },
  });
  expect(created.status()).toBe(201);

  await page.goto('/users/list');
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill(stamp);
  await expect(page.getByRole('row')).toHaveCount(2); // header + the one match
  await page
    .getByRole('main')
    .getByRole('link', { name: `Anna ${lastname}`, exact: true })
    .click();
  await page.getByRole('button', { name: 'Edit' }).click();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill(`Anneliese${stamp}`);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `Anneliese${stamp} ${lastname}` })).toBeVisible();

  await page.goto('/events/admin');
  await expect(page.getByRole('heading', { name: 'Admin events' })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Actor' }).fill('admin@globex.example');
  await expect(page).toHaveURL(/actor=admin%40globex\.example/);
  await page
    .getByRole('row')
    .filter({ hasText: stamp })
    .getByRole('button', { name: /^Details of User updated/ })
    .click();
  const drawer = page.getByRole('dialog', { name: 'Event details' });
  const changed = drawer.getByRole('table', { name: 'Changed fields' });
  const row = changed.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'firstname' }) });
  await expect(row).toContainText('Anna');
  await expect(row).toContainText(`Anneliese${stamp}`);
});
