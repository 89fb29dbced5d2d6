import { expect, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../playwright.config';

export { DEMO_PASSWORD };

/** Signs in through the sign-in screen and waits for the dashboard. */
export async function signIn(page: Page, username: string, password = DEMO_PASSWORD) {
  await page.goto('/sign-in');
  await page.getByLabel('Email', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/main-dashboards\/global\/SASEDashboard/);
}

/** Signs in through the API and returns the session id (for API-level checks). */
export async function apiSignIn(page: Page, username: string, password = DEMO_PASSWORD): Promise<string> {
  const res = await page.request.post('/api/session', { data: { username, password } });
  expect(res.status()).toBe(200);
  return (await res.json()).sessid;
}
