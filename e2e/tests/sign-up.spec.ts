import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test('sign up, verify through the e-mailed link, then sign in', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `founder-${stamp}@initech.example`;
  const password = 'a-very-long-password';
  await page.goto('/sign-up');
  await page.getByLabel('Organisation name', { exact: true }).fill('Initech');
  await page.getByLabel('Workspace name', { exact: true }).fill(`initech-${stamp}`);
  await page.getByLabel('First name', { exact: true }).fill('Peter');
  await page.getByLabel('Last name', { exact: true }).fill('Gibbons');
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/email-verification/);
  await expect(page.getByText(email)).toBeVisible();

  const outbox = await (await page.request.get(`/api/dev/outbox?to=${encodeURIComponent(email)}`)).json();
  expect(outbox).toHaveLength(1);
  const link = /https?:\/\/[^\s]+\/verify\/([A-Za-z0-9_-]+)/.exec(outbox[0].text);
  expect(link).not.toBeNull();
  await page.goto(`/verify/${link?.[1]}`);
  await expect(page.getByRole('heading', { name: 'E-mail address verified' })).toBeVisible();

  await signIn(page, email, password);
  await expect(page.getByRole('banner')).toContainText('Initech');
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email', { exact: true }).fill('admin@acme.example');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Wrong e-mail or password.');
  await expect(page).toHaveURL(/\/sign-in/);
});
