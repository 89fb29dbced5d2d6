import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test("a partner switches tenant by display name; a user's page of the old tenant gives way to the new tenant's users list", async ({
  page,
}) => {
  await signIn(page, 'admin@northwind.example');
  const switcher = page.getByRole('combobox', { name: 'Working tenant' });
  await expect(switcher).toHaveValue('Northwind Security Partners');

  await switcher.click();
  await page.getByRole('option', { name: 'Acme Corporation' }).click();
  await expect(switcher).toHaveValue('Acme Corporation');
  await page.goto('/users/list');
  await page.getByRole('main').getByRole('link', { name: /Anna/ }).first().click();
  await expect(page).toHaveURL(/\/users\/[0-9a-f-]{36}$/);

  await switcher.click();
  await page.getByRole('option', { name: 'Globex Industries' }).click();
  await expect(page).toHaveURL(/\/users\/list$/);
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(switcher).toHaveValue('Globex Industries');
});

test.describe('on a 390-pixel phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the partner's tenant switcher stays in sight and readable", async ({ page }) => {
    await signIn(page, 'admin@northwind.example');
    const switcher = page.getByRole('combobox', { name: 'Working tenant' });
    await expect(switcher).toBeInViewport({ ratio: 1 });
    expect((await switcher.boundingBox())?.width).toBeGreaterThanOrEqual(120);
  });

  test("a tenant administrator's tenant name stays in sight", async ({ page }) => {
    await signIn(page, 'admin@acme.example');
    const name = page.getByRole('banner').getByText('Acme Corporation');
    await expect(name).toBeInViewport({ ratio: 1 });
    expect((await name.boundingBox())?.width).toBeGreaterThanOrEqual(90);
  });
});
