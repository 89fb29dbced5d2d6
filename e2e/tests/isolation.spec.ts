import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

/** End users the demo gives every customer tenant (apps/server/src/seed/seed.ts); other journeys may add more. */
const SEEDED_END_USERS = 52;

test("a second tenant's administrator cannot see the first tenant's users (UI and API)", async ({ page }) => {
  await signIn(page, 'admin@globex.example');
  await page.goto('/users/list');
  await expect(page.getByRole('heading', { name: 'Users' })).toBeVisible();
  // Its own users are listed, so the empty search below is a filtered answer, not an empty screen.
  await expect(page.getByRole('row', { name: /@globex\.example/ }).first()).toBeVisible();
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill('acme.example');
  await expect(page.getByText('No users match your search.')).toBeVisible();

  const token = await apiSignIn(page, 'admin@globex.example');
  const own = await page.request.get('/api/subscriber/user/globex?limit=5', {
    headers: { 'x-auth-token': token },
  });
  expect(own.status()).toBe(200);
  const body: { items: Array<{ tenant: string; username: string; usertype: number }>; total: number } =
    await own.json();
  expect(body.total).toBeGreaterThanOrEqual(SEEDED_END_USERS);
  // A full page of globex's own end users: an empty or foreign list fails here.
  expect(body.items).toHaveLength(5);
  for (const user of body.items) {
    expect(user).toMatchObject({
      tenant: 'globex',
      usertype: 0,
      username: expect.stringMatching(/@globex\.example$/),
    });
  }
  const other = await page.request.get('/api/subscriber/user/acme', { headers: { 'x-auth-token': token } });
  expect(other.status()).toBe(404);
});
