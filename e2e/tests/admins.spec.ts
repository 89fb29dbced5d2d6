import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test('an owner invites an administrator, who accepts by the e-mailed link and signs in', async ({
  page,
  browser,
}) => {
  const email = `invitee-${Date.now().toString(36)}@acme.example`;
  await signIn(page, 'admin@acme.example');
  await page.goto('/users/roles');
  const panel = page.getByRole('region', { name: 'Administrators' });
  await panel.getByRole('button', { name: 'Invite administrator' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite administrator' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('First name').fill('Ivy');
  await dialog.getByLabel('Last name').fill('Invitee');
  await dialog.getByLabel('Role').selectOption({ label: 'Helpdesk' });
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();

  const [mail] = await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json();
  const transid = /\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  const invitee = await browser.newPage();
  await invitee.goto(`/verify/${transid}`);
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
