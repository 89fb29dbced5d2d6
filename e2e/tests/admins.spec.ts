import { expect, test } from '@playwright/test';
import { apiSignIn, readOutbox, signIn, verifyLinkId } from './fixtures';

test('an owner invites an administrator, who accepts by the e-mailed link and signs in', async ({
  page,
  browser,
}) => {
  const email = `invitee-${Date.now().toString(36)}@acme.example`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/users/roles');
  await page.getByRole('tab', { name: 'Assignments' }).click();
  const panel = page.getByRole('region', { name: 'Administrators' });
  await panel.getByRole('button', { name: 'Invite administrator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite administrator' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('First name').fill('Ivy');
  await dialog.getByLabel('Last name').fill('Invitee');
  await dialog.getByLabel('Role').selectOption({ label: 'Helpdesk' });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();

  const [mail] = await readOutbox(page.request, email);
  const invitee = await browser.newPage();
  await invitee.goto(`/verify/${verifyLinkId(mail)}`);
  await invitee.getByLabel('New password', { exact: true }).fill('a-chosen-password');
  await invitee.getByLabel('Confirm password', { exact: true }).fill('a-chosen-password');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await expect(invitee.getByRole('heading', { name: 'Welcome aboard' })).toBeVisible();
  await signIn(invitee, email, 'a-chosen-password');
  await invitee.close();

  await page.reload();
  await panel.getByLabel('Search administrators').fill(email);
  await expect(panel.getByRole('row', { name: new RegExp(email) })).toContainText('Active');
});

test("an owner sees every administrator's API tokens and revokes one, which stops working at once", async ({
  page,
}) => {
  const name = `Nightly export ${Date.now().toString(36)}`;
  const sessid = await apiSignIn(page, 'admin@acme.example');
  const created = await page.request.post('/api/me/tokens', {
    headers: { 'X-Auth-Token': sessid },
    data: { name, role: 'auditor', expiresInDays: 30 },
  });
  expect(created.status()).toBe(201);
  const { secret } = await created.json();
  const asToken = { Authorization: `Bearer ${secret}` };
  expect((await page.request.get('/api/subscriber/user/acme', { headers: asToken })).status()).toBe(200);

  await signIn(page, 'admin@acme.example');
  await page.goto('/users/roles');
  const panel = page.getByRole('region', { name: "Administrators' API tokens" });
  const row = panel.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('admin@acme.example');
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: `Revoke ${name} of admin@acme.example` }).click();
  const dialog = page.getByRole('dialog', { name: 'Revoke token?' });
  await dialog.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');

  expect((await page.request.get('/api/subscriber/user/acme', { headers: asToken })).status()).toBe(401);
});
