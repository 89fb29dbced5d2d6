import { type APIRequestContext, expect, type Page } from '@playwright/test';
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

/** The platform administrator of the demo: the only one the dev outbox answers. */
export const PLATFORM_ADMIN = 'admin@platform.example';

/** One mail of the dev outbox. */
export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  attachments?: { filename: string; contentType: string; size: number }[];
}

/**
 * The mail kept for `to`, newest first, read from the dev outbox as the platform administrator (the server runs
 * with DEV_OUTBOX=true and answers nobody else). Its own session, ended afterwards, so the caller's is untouched.
 */
export async function readOutbox(request: APIRequestContext, to: string): Promise<OutboxMail[]> {
  const signedIn = await request.post('/api/session', {
    data: { username: PLATFORM_ADMIN, password: DEMO_PASSWORD },
  });
  expect(signedIn.status()).toBe(200);
  const headers = { 'X-Auth-Token': (await signedIn.json()).sessid as string };
  try {
    const res = await request.get(`/api/dev/outbox?to=${encodeURIComponent(to)}`, { headers });
    expect(res.status()).toBe(200);
    return (await res.json()) as OutboxMail[];
  } finally {
    await request.delete('/api/session', { headers });
  }
}

/** The id in the `/verify/{id}` link of a mail. */
export function verifyLinkId(mail: OutboxMail): string {
  const id = /https?:\/\/[^\s]+\/verify\/([A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  expect(id, `a /verify/ link in "${mail.subject}"`).toBeTruthy();
  return id as string;
}
