import { deflateSync } from 'node:zlib';
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

/** A small solid-colour PNG (`size`×`size`, RGB), made here so that the upload is a real image. */
function makePng(size: number, [r, g, b]: [number, number, number]): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes: Buffer) => {
    let c = 0xffffffff;
    for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const row = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat()),
  ]);
  const pixels = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('a partner brands its sign-in page with a logo and colours, then deletes a tenant and restores it', async ({
  page,
  browser,
}) => {
  const suffix = Date.now().toString(36);
  const name = `doomed-${suffix}`;
  const created = await page.request.post('/api/partner/northwind/tenants', {
    headers: { 'x-auth-token': await apiSignIn(page, 'admin@northwind.example') },
    data: {
      name,
      displayName: `Doomed ${suffix}`,
      owner: { email: `owner-${suffix}@doomed.example`, firstname: 'Dora', lastname: 'Doomed' },
    },
  });
  expect(created.status()).toBe(201);

  await signIn(page, 'admin@northwind.example');
  await page.goto('/admin-console');
  await page.getByRole('link', { name: 'Partner settings' }).click();
  await expect(page.getByRole('heading', { name: 'Partner settings', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Primary colour' }).fill('#aa3300');
  await page.getByRole('textbox', { name: 'Accent colour' }).fill('#0055aa');
  await page.getByLabel('Support e-mail').fill(`help-${suffix}@northwind.example`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('The partner settings were saved.')).toBeVisible();
  await page.locator('input[type="file"]').setInputFiles({
    name: 'logo.png',
    mimeType: 'image/png',
    buffer: makePng(16, [170, 51, 0]),
  });
  await expect(page.getByText('The logo was saved.')).toBeVisible();
  await expect(page.getByRole('img', { name: 'Current logo' })).toBeVisible();

  // The branded sign-in page, for someone not signed in: the logo (loaded) and the colours.
  const visitor = await browser.newPage();
  await visitor.goto('/northwind/sign-in');
  const logo = visitor.locator('img[src*="/api/partner/northwind/logo"]');
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(16);
  await expect(visitor.getByText('Northwind Security Partners', { exact: true })).toHaveCSS(
    'color',
    'rgb(170, 51, 0)',
  );
  await visitor.close();

  // Deleting asks for the tenant's name; the row then says when it goes, and a restore brings it back.
  await page.goto('/admin-console');
  await page.getByRole('searchbox', { name: 'Search' }).fill(suffix);
  const table = page.getByRole('table', { name: 'Managed tenants' });
  const row = table.getByRole('row', { name: new RegExp(`Doomed ${suffix}`) });
  await row.getByRole('button', { name: `Delete Doomed ${suffix}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete tenant?' });
  const confirm = dialog.getByRole('button', { name: 'Delete tenant' });
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type the tenant name ${name} to confirm`).fill(name);
  await confirm.click();
  await expect(row).toContainText('Deletion scheduled');
  await expect(row).toContainText('Deleted on');
  await row.getByRole('button', { name: `Restore Doomed ${suffix}` }).click();
  await expect(page.getByText(`Doomed ${suffix} was restored.`)).toBeVisible();
  await expect(row).toContainText('Active');
});
