import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

test('an owner makes an embed link for a wall screen: it opens read-only elsewhere, signs nobody in, and ends when revoked', async ({
  page,
  browser,
}) => {
  const name = `Lobby wall ${Date.now().toString(36)}`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/settings');
  const card = page.getByRole('region', { name: 'Embedded dashboards' });
  await card.getByRole('button', { name: 'Create link' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an embed link' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('checkbox', { name: 'Tenant dashboard' }).check();
  await dialog.getByRole('checkbox', { name: 'Secure private access' }).check();
  await dialog.getByRole('button', { name: 'Create link' }).click();
  const created = page.getByRole('dialog', { name: 'Link created' });
  const link = await created.getByRole('textbox', { name: 'Secure private access' }).inputValue();
  expect(link).toMatch(/\/embed\/spa\/acme\?token=emb_[A-Za-z0-9_-]{43}$/);
  const token = new URL(link).searchParams.get('token') as string;
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(card.getByRole('row', { name: new RegExp(name) })).toContainText('Active');

  // A wall screen with no session of its own: the dashboard, without the console, the token gone from the address.
  const wallScreen = await browser.newContext();
  const wall = await wallScreen.newPage();
  await wall.goto(link);
  await expect(wall.getByRole('heading', { level: 1, name: 'Secure private access' })).toBeVisible();
  await expect(wall.getByRole('table', { name: 'Private access per site' })).toBeVisible();
  expect(new URL(wall.url()).search).toBe('');
  await expect(wall.getByRole('navigation')).toHaveCount(0);
  const stored = await wall.evaluate(() => ({ ...localStorage, ...sessionStorage }));
  expect(stored.sessid).toBeUndefined();
  const { violations } = await new AxeBuilder({ page: wall }).analyze();
  expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  // What the link can do from that screen: its dashboards' reads, nothing else.
  const asLink = { Authorization: `Bearer ${token}` };
  expect((await wall.request.get('/api/dashboard/acme/summary', { headers: asLink })).status()).toBe(200);
  expect((await wall.request.get('/api/subscriber/user/acme', { headers: asLink })).status()).toBe(403);
  const minted = await wall.request.post('/api/me/tokens', {
    headers: asLink,
    data: { name: 'Forever', role: 'owner', expiresInDays: null },
  });
  expect(minted.status()).toBe(403);

  // Opened in the owner's own browser, the link leaves the owner signed in as themselves.
  const ownSession = await page.evaluate(() => localStorage.getItem('sessid'));
  expect(ownSession).toBeTruthy();
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Secure private access' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('sessid'))).toBe(ownSession);
  await page.goto('/settings');
  await expect(page.getByRole('region', { name: 'Embedded dashboards' })).toBeVisible();

  // Revoked: the wall screen says the link has ended.
  const row = card.getByRole('row', { name: new RegExp(name) });
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page
    .getByRole('dialog', { name: 'Revoke the link?' })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(page.getByText('Link revoked: its screens stop at once')).toBeVisible();
  await wall.reload();
  await expect(wall.getByRole('heading', { level: 1, name: 'This link has ended' })).toBeVisible();
  await wallScreen.close();
});

test('an old link carrying a session id opens nothing and signs nobody in', async ({ browser, page }) => {
  // The attacker's own session, put in a link of the old kind.
  const attackerSession = await apiSignIn(page, 'admin@globex.example');
  const victim = await browser.newPage();
  await victim.goto(`/embed/global?sid=${attackerSession}`);
  await expect(
    victim.getByRole('heading', { level: 1, name: 'This dashboard needs its link' }),
  ).toBeVisible();
  expect(new URL(victim.url()).search).toBe('');
  const stored = await victim.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
  expect(stored).not.toContain(attackerSession);
  await victim.goto('/users/list');
  await expect(victim).toHaveURL(/\/sign-in/);
  await victim.close();
});
