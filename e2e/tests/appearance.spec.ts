import { expect, test } from '@playwright/test';
import { signIn } from './fixtures';

test('switching to German shows the German interface and persists', async ({ page }) => {
  await signIn(page, 'netadmin@acme.example');
  await page.getByRole('button', { name: /Language/ }).click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/users/list');
  await expect(page.getByRole('heading', { name: 'Benutzer' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Benutzer' })).toBeVisible();
});

test('switching the theme to dark changes the colour scheme', async ({ page }) => {
  await signIn(page, 'admin@globex.example');
  await page.getByRole('button', { name: /Appearance/ }).click();
  await page.getByRole('radiogroup', { name: 'Theme' }).getByRole('radio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});
