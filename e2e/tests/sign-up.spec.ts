import { expect, type Page, test } from '@playwright/test';
import { readOutbox, signIn, verifyLinkId } from './fixtures';

/** Fills the sign-up form and sends it. */
async function signUp(page: Page, fields: { workspace: string; email: string; password: string }) {
  await page.goto('/sign-up');
  await page.getByLabel('Organisation name', { exact: true }).fill('Initech');
  await page.getByLabel('Workspace name', { exact: true }).fill(fields.workspace);
  await page.getByLabel('First name', { exact: true }).fill('Peter');
  await page.getByLabel('Last name', { exact: true }).fill('Gibbons');
  await page.getByLabel('Email', { exact: true }).fill(fields.email);
  await page.getByLabel('Password', { exact: true }).fill(fields.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(fields.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

test('sign up; the waiting page turns to "verified" by itself when the mailed link is opened elsewhere', async ({
  page,
  browser,
}) => {
  const stamp = Date.now().toString(36);
  const email = `founder-${stamp}@initech.example`;
  const password = 'a-very-long-password';
  await signUp(page, { workspace: `initech-${stamp}`, email, password });
  await expect(page).toHaveURL(/\/email-verification/);
  await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  await expect(page.getByText(email)).toBeVisible();

  // The outbox holds the links that take over accounts: nobody but the platform administrator reads it.
  expect((await page.request.get('/api/dev/outbox')).status()).toBe(401);
  const mails = await readOutbox(page.request, email);
  expect(mails).toHaveLength(1);

  // The link is opened on "another device"; the first page keeps polling and sees the result.
  const mailbox = await browser.newPage();
  await mailbox.goto(`/verify/${verifyLinkId(mails[0])}`);
  await expect(mailbox.getByRole('heading', { name: 'E-mail address verified' })).toBeVisible();
  await mailbox.close();
  await expect(page.getByRole('heading', { name: 'E-mail address verified' })).toBeVisible({
    timeout: 15_000,
  });

  await page.getByRole('link', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, email, password);
  await expect(page.getByRole('banner')).toContainText('Initech');
});

test('a guessable password is refused on the sign-up form, with the reason, and nothing is created', async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const workspace = `guess-${stamp}`;
  const email = `guess-${stamp}@initech.example`;
  await signUp(page, { workspace, email, password: 'password1234' });
  const field = page.getByLabel('Password', { exact: true });
  await expect(field).toHaveAccessibleDescription(/Too easy to guess/);
  await expect(field).toBeFocused();
  await expect(page).toHaveURL(/\/sign-up/);

  // No mail went out, and the workspace name was not reserved: someone else may still take it.
  expect(await readOutbox(page.request, email)).toEqual([]);
  const other = await page.request.post('/api/signup', {
    data: {
      tenant: workspace,
      organisation: 'Initech',
      firstname: 'Bill',
      lastname: 'Lumbergh',
      email: `other-${stamp}@initech.example`,
      password: 'violet-harbour-tulip-58',
    },
  });
  expect(other.status()).toBe(201);
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email', { exact: true }).fill('admin@acme.example');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toContainText('Wrong e-mail or password.');
  await expect(page).toHaveURL(/\/sign-in/);
});
