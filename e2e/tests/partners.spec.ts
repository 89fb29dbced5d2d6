import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { apiSignIn, DEMO_PASSWORD, readOutbox, signIn, verifyLinkId } from './fixtures';

test('a partner creates a customer tenant, its owner accepts the mailed invitation, and the partner suspends and resumes it', async ({
  page,
  browser,
}) => {
  const suffix = Date.now().toString(36);
  const name = `initech-${suffix}`;
  const owner = `owner-${suffix}@initech.example`;
  await signIn(page, 'admin@northwind.example');
  await page.getByRole('navigation').getByRole('link', { name: 'Partner console' }).click();
  await expect(page).toHaveURL(/\/admin-console$/);
  await expect(page.getByRole('heading', { name: 'Partner console', level: 1 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Managed tenants' });
  await expect(table.getByRole('row', { name: /Acme Corporation/ })).toBeVisible();

  await page.getByRole('button', { name: 'Create tenant' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create tenant' });
  await dialog.getByLabel('Display name').fill(`Initech ${suffix}`);
  // A name already taken is said on its field, and nothing is created.
  await dialog.getByLabel('Tenant name').fill('acme');
  await dialog.getByLabel('Owner e-mail').fill(owner);
  await dialog.getByLabel('First name').fill('Bill');
  await dialog.getByLabel('Last name').fill('Lumbergh');
  await dialog.getByRole('button', { name: 'Create and invite owner' }).click();
  await expect(dialog.getByText('This workspace name is taken.')).toBeVisible();
  await dialog.getByLabel('Tenant name').fill(name);
  await dialog.getByRole('button', { name: 'Create and invite owner' }).click();
  await expect(
    page.getByText(`Initech ${suffix} was created. Its owner was invited by e-mail to ${owner}.`),
  ).toBeVisible();

  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  const row = table.getByRole('row', { name: new RegExp(`Initech ${suffix}`) });
  await expect(row).toContainText('Active');
  await expect(table.getByRole('row')).toHaveCount(2); // the header and the new tenant

  // The owner chooses a password through the mailed link and signs in to the new tenant.
  const [mail] = await readOutbox(page.request, owner);
  const invitee = await browser.newPage();
  await invitee.goto(`/verify/${verifyLinkId(mail)}`);
  await invitee.getByLabel('New password', { exact: true }).fill('a-chosen-password');
  await invitee.getByLabel('Confirm password', { exact: true }).fill('a-chosen-password');
  await invitee.getByRole('button', { name: 'Set password' }).click();
  await signIn(invitee, owner, 'a-chosen-password');
  await expect(invitee.getByRole('banner').getByText(`Initech ${suffix}`)).toBeVisible();

  // Suspended, its owner is signed out and cannot sign in again; resumed, they can.
  await row.getByRole('button', { name: `Suspend Initech ${suffix}` }).click();
  await page
    .getByRole('dialog', { name: 'Suspend tenant?' })
    .getByRole('button', { name: 'Suspend' })
    .click();
  await expect(row).toContainText('Suspended');
  await invitee.reload();
  await expect(invitee).toHaveURL(/\/sign-in/);
  await invitee.getByLabel('Email', { exact: true }).fill(owner);
  await invitee.getByLabel('Password', { exact: true }).fill('a-chosen-password');
  await invitee.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    invitee.getByText('This workspace is suspended. Ask your service provider to resume it.'),
  ).toBeVisible();

  await row.getByRole('button', { name: `Resume Initech ${suffix}` }).click();
  await page.getByRole('dialog', { name: 'Resume tenant?' }).getByRole('button', { name: 'Resume' }).click();
  await expect(row).toContainText('Active');
  await signIn(invitee, owner, 'a-chosen-password');
  await invitee.close();
});

test("a partner opens a customer read-only, where a change is refused, then in edit mode, where it is logged as the partner's", async ({
  page,
}) => {
  const stamp = Date.now().toString(36);
  const lastname = `Partnered${stamp}`;
  const created = await page.request.post('/api/subscriber/user/acme', {
    headers: { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') },
    data: { username: `partnered-${stamp}@acme.example`, firstname: 'Pia', lastname },
  });
  expect(created.status()).toBe(201);

  await signIn(page, 'admin@northwind.example');
  await page.goto('/admin-console');
  await page.getByRole('button', { name: 'Open Acme Corporation read-only' }).click();
  const band = page.getByRole('region', { name: 'Partner access' });
  await expect(band).toContainText('Working in Acme Corporation for Northwind Security Partners — read-only');

  await page.goto('/users/list');
  await page.getByRole('main').getByRole('searchbox', { name: 'Search' }).fill(stamp);
  await page
    .getByRole('main')
    .getByRole('link', { name: `Pia ${lastname}`, exact: true })
    .click();
  // Exact: the band's "Switch to edit mode" holds the word too.
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByRole('textbox', { name: 'First name', exact: true }).fill(`Pippa${stamp}`);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(
    page.getByText('You opened this tenant read-only. Switch to edit mode to change it.'),
  ).toBeVisible();

  await band.getByRole('button', { name: 'Switch to edit mode' }).click();
  await expect(band).toContainText('— edit mode');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Pippa${stamp} ${lastname}` })).toBeVisible();

  await page.goto('/events/admin');
  await page.getByRole('searchbox', { name: 'Actor' }).fill('admin@northwind.example');
  await expect(page.getByRole('row').filter({ hasText: 'admin@northwind.example' }).first()).toContainText(
    'Partner northwind, acting in this tenant',
  );
});

for (const theme of ['light', 'dark'] as const) {
  test(`the partner console and the partner-access band have no serious axe finding, ${theme} theme`, async ({
    page,
  }) => {
    const partner = 'admin@northwind.example';
    const setTheme = async (value: 'light' | 'dark' | null) => {
      const signedIn = await page.request.post('/api/session', {
        data: { username: partner, password: DEMO_PASSWORD },
      });
      const session = await signedIn.json();
      const headers = { 'X-Auth-Token': session.sessid as string };
      const res = await page.request.put('/api/me', {
        headers,
        data: {
          firstname: session.firstname,
          lastname: session.lastname,
          language: session.language,
          theme: value,
          palette: session.palette,
        },
      });
      expect(res.status()).toBe(200);
      await page.request.delete('/api/session', { headers });
      return session.theme as 'light' | 'dark' | null;
    };
    const previous = await setTheme(theme);
    try {
      await signIn(page, partner);
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
      await page.goto('/admin-console');
      await page.getByRole('button', { name: 'Open Acme Corporation read-only' }).click();
      await expect(page.getByRole('region', { name: 'Partner access' })).toContainText('read-only');
      await page.goto('/admin-console');
      await expect(
        page.getByRole('table', { name: 'Managed tenants' }).getByRole('row', { name: /Acme/ }),
      ).toBeVisible();
      for (const mode of ['read-only', 'edit mode']) {
        const { violations } = await new AxeBuilder({ page })
          .options({ resultTypes: ['violations'] })
          .analyze();
        const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
          mode,
        ).toEqual([]);
        if (mode === 'read-only') {
          await page.getByRole('button', { name: 'Switch to edit mode' }).click();
          await expect(page.getByRole('region', { name: 'Partner access' })).toContainText('edit mode');
        }
      }
    } finally {
      await setTheme(previous);
    }
  });
}
