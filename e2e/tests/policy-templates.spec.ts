import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

/**
 * Policy templates across tenants (issue 13): a partner creates a tenant, makes a template of a demo policy,
 * previews and applies it to three tenants, sees one drift after a local edit there, and re-applies it.
 */
test('a partner creates a tenant, applies a template to three tenants and sees drift after a local edit', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const tenantName = `hooli-${suffix}`;
  const display = `Hooli ${suffix}`;
  const templateName = `Baseline ${suffix}`;
  const policy = 'Video calls priority';

  await signIn(page, 'admin@northwind.example');
  await page.goto('/admin-console');
  await page.getByRole('button', { name: 'Create tenant' }).click();
  const create = page.getByRole('dialog', { name: 'Create tenant' });
  await create.getByLabel('Display name').fill(display);
  await create.getByLabel('Tenant name').fill(tenantName);
  await create.getByLabel('Owner e-mail').fill(`owner-${suffix}@hooli.example`);
  await create.getByLabel('First name').fill('Gavin');
  await create.getByLabel('Last name').fill('Belson');
  await create.getByRole('button', { name: 'Create and invite owner' }).click();
  await expect(page.getByText(`${display} was created.`, { exact: false })).toBeVisible();

  // A template of one of Acme's demo policies.
  await page.getByRole('main').getByRole('link', { name: 'Policy templates' }).click();
  await expect(page).toHaveURL(/\/admin-console\/templates$/);
  await expect(page.getByRole('heading', { name: 'Policy templates', level: 1 })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Create template' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create template' });
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(templateName);
  await dialog.getByRole('combobox', { name: 'Take policies from' }).click();
  await page.getByRole('option', { name: 'Acme Corporation (acme)' }).click();
  await dialog.getByRole('combobox', { name: 'Policies', exact: true }).click();
  await page.getByRole('option', { name: policy }).click();
  // Leaving the field closes its list, which covers the buttons.
  await dialog.getByRole('combobox', { name: 'Policies', exact: true }).press('Tab');
  await dialog.getByRole('button', { name: 'Create template' }).click();
  await expect(page.getByRole('heading', { name: templateName, level: 1 })).toBeVisible();
  await expect(page.getByText(policy, { exact: true })).toBeVisible();

  // Preview and apply to the three tenants.
  const table = page.getByRole('table', { name: 'Tenants and their state' });
  const row = (name: string) => table.getByRole('row').filter({ hasText: name });
  for (const name of ['Acme Corporation', 'Globex Industries', display]) {
    await expect(row(name)).toContainText('Never applied');
    await table.getByRole('checkbox', { name: `Select ${name}` }).check();
  }
  await page.getByRole('button', { name: 'Preview (3)' }).click();
  const preview = page.getByRole('region', { name: tenantName });
  await expect(preview).toContainText('1 to create, 0 to update, 0 unchanged');
  // Acme is where the policy came from: nothing changes there.
  await expect(page.getByRole('region', { name: 'acme' })).toContainText(
    '0 to create, 0 to update, 1 unchanged',
  );
  await page.getByRole('button', { name: 'Apply to 3 tenants' }).click();
  await expect(page.getByText('Applied to 3 of 3 tenants.')).toBeVisible();
  const results = page.getByRole('list', { name: 'Apply results' });
  await expect(results.getByText('Applied', { exact: true })).toHaveCount(3);
  for (const name of ['Acme Corporation', 'Globex Industries', display]) {
    await expect(row(name)).toContainText('In sync');
  }
  const templateUrl = page.url();

  // A local edit in Globex, opened in edit mode from the partner console: the policy is switched off.
  await page.goto('/admin-console');
  await page.getByRole('button', { name: 'Open Globex Industries', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Partner access' })).toContainText('edit mode');
  await page.goto('/policy/list');
  const toggle = page.getByRole('switch', { name: `Enabled: ${policy}` });
  await expect(toggle).toBeChecked();
  await toggle.click({ force: true });
  await expect(toggle).not.toBeChecked();

  // Back at the template: Globex drifted, the others are in sync.
  await page.goto(templateUrl);
  await expect(row('Globex Industries')).toContainText('Drifted');
  await expect(row('Globex Industries')).toContainText(`${policy} (changed`);
  await expect(row('Acme Corporation')).toContainText('In sync');
  await expect(row(display)).toContainText('In sync');

  // Re-applied (after its preview), Globex is in sync again.
  await row('Globex Industries').getByRole('button', { name: 'Re-apply to Globex Industries' }).click();
  const globex = page.getByRole('region', { name: 'globex' });
  await expect(globex).toContainText('0 to create, 1 to update, 0 unchanged');
  await globex.getByRole('button', { name: `Changes to ${policy} (1)` }).click();
  await expect(globex).toContainText('enabled');
  await page.getByRole('button', { name: 'Apply to 1 tenant' }).click();
  await expect(page.getByText('Applied to 1 of 1 tenant.')).toBeVisible();
  await expect(row('Globex Industries')).toContainText('In sync');

  // The template page with its results, and the list (with the demo's template), have no serious axe finding.
  for (const path of [templateUrl, '/admin-console/templates']) {
    if (path !== templateUrl) await page.goto(path);
    if (path === '/admin-console/templates') {
      await expect(page.getByRole('link', { name: 'Web baseline' })).toBeVisible();
    }
    const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      path,
    ).toEqual([]);
  }
});
