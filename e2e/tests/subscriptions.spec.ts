import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { apiSignIn, DEMO_PASSWORD, signIn } from './fixtures';

/**
 * Subscriptions (issue 13, spec §4): the trial's owner cannot cancel (the action is unavailable and says why,
 * and the API refuses it too); the paid tenant's owner cancels at period end and resumes, the history shows
 * both, and an invoice downloads as a PDF. The demo seeds acme on the Business plan and globex on the trial.
 */

/** Serious and critical axe findings on the page, compactly. */
async function axeFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test("the trial's owner cannot cancel: the action is unavailable with the reason, and the API refuses it", async ({
  page,
}) => {
  await signIn(page, 'admin@globex.example');
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('button', { name: 'Tenant' }).click();
  await nav.getByRole('link', { name: 'Subscription', exact: true }).click();
  await expect(page).toHaveURL(/\/tenant\/globex\/subscriptions\/$/);
  await expect(page.getByRole('heading', { level: 2, name: 'Trial plan' })).toBeVisible();
  await expect(page.getByText(/days? left: the trial ends on /)).toBeVisible();
  const cancel = page.getByRole('button', { name: 'Cancel subscription' });
  await expect(cancel).toBeDisabled();
  await expect(cancel).toHaveAccessibleDescription(/^A trial cannot be cancelled: it ends by itself on /);
  await expect(page.getByRole('progressbar', { name: /^[\d,]+ of [\d,]+ seats used/ })).toBeVisible();
  expect(await axeFindings(page)).toEqual([]);

  // Asked directly, the server refuses too, with the translated error's code.
  const token = await apiSignIn(page, 'admin@globex.example');
  const res = await page.request.post('/api/tenant/globex/subscription/cancel', {
    headers: { 'X-Auth-Token': token },
  });
  expect(res.status()).toBe(409);
  expect(await res.json()).toMatchObject({ code: 'trial_not_cancellable', errcode: 25 });
  const subscription = await page.request.get('/api/tenant/globex/subscription', {
    headers: { 'X-Auth-Token': token },
  });
  expect(await subscription.json()).toMatchObject({ status: 'trial', cancelAtPeriodEnd: false });
});

test('the paid owner cancels at period end and resumes, the history shows it, and an invoice downloads as a PDF', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin@acme.example');
  await page.goto('/tenant/acme/subscriptions/');
  await expect(page.getByRole('heading', { level: 2, name: 'Business plan' })).toBeVisible();
  await expect(page.getByRole('progressbar', { name: /of 100 seats used/ })).toBeVisible();

  await page.getByRole('button', { name: 'Cancel subscription' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel subscription?' });
  await expect(dialog.getByText(/stays active until .+ and then ends/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(page.getByText(/^The subscription is cancelled\. It ends on .+\.$/)).toBeVisible();
  await expect(page.getByText(/^The subscription ends on .+ and is not renewed\./)).toBeVisible();
  await expect(page.getByText('Does not renew')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Resume subscription' }).click();
  await expect(page.getByText(/^The subscription continues and renews on .+\.$/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Cancel subscription' })).toBeEnabled();

  // The invoices: the newest downloads as a PDF.
  const invoices = page.getByRole('table', { name: 'Invoices' });
  const first = invoices.getByRole('row').nth(1);
  await expect(first).toContainText(/INV-\d{4}-\d+/);
  await expect(first).toContainText('€');
  const number = (await first.getByText(/^INV-/).innerText()).trim();
  const dir = mkdtempSync(join(tmpdir(), 'palisade-e2e-invoice-'));
  try {
    const downloading = page.waitForEvent('download');
    await first.getByRole('button', { name: `Download invoice ${number} as PDF` }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = join(dir, 'invoice.pdf');
    await download.saveAs(file);
    expect(readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain(number);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The history, newest first: the resumption, then the cancellation, both by the owner.
  await page.getByRole('link', { name: 'Subscription history' }).first().click();
  await expect(page).toHaveURL(/\/tenant\/acme\/subscriptions\/history$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription history' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Subscription history' }).getByRole('row');
  await expect(rows.nth(1)).toContainText('Resumed');
  await expect(rows.nth(1)).toContainText('admin@acme.example');
  await expect(rows.nth(2)).toContainText('Cancelled');
  await expect(rows.nth(2)).toContainText('Ends at period end: no → to yes');
  await expect(rows.nth(2)).toContainText('admin@acme.example');
  expect(await axeFindings(page)).toEqual([]);
});

test('the usage shows the tenant against its seats, and a partner the rollup of its tenants', async ({
  page,
  browser,
}) => {
  await signIn(page, 'admin@acme.example');
  await page.goto('/tenant/subscription/usage');
  await expect(page.getByRole('heading', { level: 1, name: 'Subscription usage' })).toBeVisible();
  await expect(
    page.getByRole('img', { name: /^Chart: Use over time\. On .+ end users of 100 seats/ }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Show the figures as a table' }).click();
  await expect(page.getByRole('table', { name: 'Use over time' }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Managed tenants' })).toHaveCount(0);
  expect(await axeFindings(page)).toEqual([]);

  // A partner, in a browser of its own.
  const context = await browser.newContext();
  const partner = await context.newPage();
  try {
    await signIn(partner, 'admin@northwind.example');
    await partner.goto('/tenant/subscription/usage');
    const rollup = partner.getByRole('table', { name: 'Subscriptions of the managed tenants' });
    await expect(rollup.getByRole('row', { name: /Acme Corporation/ })).toContainText('Business');
    await expect(rollup.getByRole('row', { name: /Globex Industries/ })).toContainText('Trial');
    expect(await axeFindings(partner)).toEqual([]);
  } finally {
    await context.close();
  }
});

test('the subscription screens pass axe in the dark theme and do not scroll sideways on a phone', async ({
  browser,
  page,
}) => {
  // The owner's saved theme is the look (accessibility.spec.ts does the same for every route).
  const signedIn = await page.request.post('/api/session', {
    data: { username: 'admin@globex.example', password: DEMO_PASSWORD },
  });
  const me = await signedIn.json();
  const headers = { 'X-Auth-Token': me.sessid as string };
  const setTheme = (theme: string | null) =>
    page.request.put('/api/me', {
      headers,
      data: {
        firstname: me.firstname,
        lastname: me.lastname,
        language: me.language,
        theme,
        palette: me.palette,
      },
    });
  expect((await setTheme('dark')).status()).toBe(200);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const phone = await context.newPage();
    await signIn(phone, 'admin@globex.example');
    await expect(phone.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    for (const path of [
      '/tenant/globex/subscriptions/',
      '/tenant/globex/subscriptions/history',
      '/tenant/subscription/usage',
    ]) {
      await phone.goto(path);
      await phone.waitForLoadState('networkidle');
      await expect(phone.locator('.mantine-Loader-root')).toHaveCount(0);
      await expect(phone.locator('h1').first()).toBeVisible();
      expect(await axeFindings(phone), path).toEqual([]);
      const scrolls = await phone.evaluate(
        () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
      );
      expect(scrolls, `${path} scrolls sideways`).toBe(false);
    }
  } finally {
    await context.close();
    await setTheme(me.theme ?? null);
  }
});
