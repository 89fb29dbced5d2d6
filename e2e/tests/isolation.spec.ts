import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

test("a second tenant's administrator cannot see the first tenant's users (UI and API)", async ({ page }) => {
  await signIn(page, 'admin@globex.example');
  await page.goto('/users/list');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill('acme.example');
  await expect(page.getByText('No users match your search.')).toBeVisible();

  const token = await apiSignIn(page, 'admin@globex.example');
  const own = await page.request.get('/api/subscriber/user/globex?limit=5', {
    headers: { 'x-auth-token': token },
  });
  expect(own.status()).toBe(200);
  expect((await own.json()).items.every((u: { tenant: string }) => u.tenant === 'globex')).toBe(true);
  const other = await page.request.get('/api/subscriber/user/acme', { headers: { 'x-auth-token': token } });
  expect(other.status()).toBe(404);
});
