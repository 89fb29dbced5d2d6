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
  await page.getByRole('button', { name: 'Save', exact: true }).click();
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
  // Fields are named as the users screen names them.
  const row = changed.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'First name' }) });
  await expect(row).toContainText('Anna');
  await expect(row).toContainText(`Anneliese${stamp}`);
});

test('the admin log shows what happened in words, not codes, in English and in German', async ({ page }) => {
  const stamp = Date.now().toString(36);
  await signIn(page, 'admin@globex.example');
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@globex.example') };
  const ids: string[] = [];
  for (const n of [1, 2]) {
    const created = await page.request.post('/api/subscriber/user/globex', {
      headers,
      data: { username: `bulk${n}-${stamp}@globex.example`, firstname: 'Bulk', lastname: `User${n}` },
    });
    expect(created.status()).toBe(201);
    ids.push((await created.json()).id);
  }
  const bulk = await page.request.post('/api/subscriber/user/globex/bulk', {
    headers,
    data: { ids, action: 'enablePrivateAccess' },
  });
  expect(bulk.status()).toBe(202);

  const openMine = async (actionLabel: string, fieldLabel: string) => {
    const main = page.getByRole('main');
    await expect(main.getByRole('button', { name: new RegExp(`^${actionLabel}`) }).first()).toBeVisible();
    // The action's code and the raw count are nowhere on the page.
    await expect(main.getByText('user.bulk.enablePrivateAccess')).toHaveCount(0);
    await main
      .getByRole('button', { name: new RegExp(`^${actionLabel}`) })
      .first()
      .click();
    const drawer = page.getByRole('dialog');
    const users = drawer
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name: fieldLabel, exact: true }) });
    await expect(users).toContainText(`bulk1-${stamp}@globex.example`);
    await expect(users).toContainText(`bulk2-${stamp}@globex.example`);
  };

  await page.goto('/events/admin?action=user.bulk.enablePrivateAccess');
  await expect(page.getByRole('heading', { name: 'Admin events' })).toBeVisible();
  await expect(page.getByRole('main').getByText('2 users').first()).toBeVisible();
  await openMine('Details of Private access turned on for users', 'Users');

  await page.goto('/events/admin?action=user.bulk.enablePrivateAccess&lng=de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('main').getByText('2 Benutzer').first()).toBeVisible();
  await openMine('Details zu Privater Zugriff für Benutzer eingeschaltet', 'Benutzer');
});
