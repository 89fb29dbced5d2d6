import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { apiSignIn, readOutbox, signIn } from './fixtures';

/**
 * The telemetry journey of issue 12: a gateway runs the traffic generator (apps/gateway --simulate-traffic) →
 * /live shows its decisions arriving, second by second → a destination drills down to its decision events; the
 * demo's week of history on the internet-access dashboard drills from a category's bar to its events.
 */
test('a gateway generating traffic moves /live, and charts drill down to the matching events', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const created = await page.request.post('/api/cybernodes/acme', {
    headers,
    data: { name: `Traffic ${Date.now().toString(36)}`, kind: 'cybernode', region: 'Lab' },
  });
  expect(created.status()).toBe(201);
  const { enrolmentToken } = (await created.json()) as { enrolmentToken: { token: string } };

  await signIn(page, 'admin@acme.example');
  await page.goto('/live');
  await expect(page.getByRole('heading', { name: 'Live traffic' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Live' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('No requests yet.')).toBeVisible();

  const dir = mkdtempSync(join(tmpdir(), 'palisade-e2e-traffic-'));
  let agent: ChildProcess | null = null;
  let log = '';
  try {
    agent = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'apps/gateway/src/main.ts',
        '--server',
        baseURL as string,
        '--dir',
        dir,
        '--simulate-traffic',
        '40',
      ],
      {
        cwd: fileURLToPath(new URL('../..', import.meta.url)),
        env: { ...process.env, PALISADE_GATEWAY_TOKEN: enrolmentToken.token },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    agent.stderr?.on('data', (chunk) => {
      log += chunk;
    });

    // The generator's decisions arrive: the destinations list fills, second by second.
    const destinations = page.getByRole('region', { name: 'Top destinations' });
    await expect(page.getByText('No requests yet.'), log).toBeHidden({ timeout: 45_000 });
    const first = destinations.getByRole('button', { name: /show the events/ }).first();
    await expect(first).toBeVisible();
    const destination = ((await first.getAttribute('aria-label')) ?? '').split(':')[0];
    await first.click();
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('cell', { name: destination }).first()).toBeVisible({ timeout: 15_000 });
    await drawer.getByRole('button', { name: 'Close' }).click();
  } finally {
    agent?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  }

  // The demo's week: a category's bar on the internet-access dashboard opens its decisions.
  await page.goto('/main-dashboards/SIADashboard?range=7d');
  const categories = page.getByRole('region', { name: /categor/i }).first();
  const bar = categories.getByRole('button', { name: /show the events/ }).first();
  await expect(bar).toBeVisible({ timeout: 15_000 });
  const category = ((await bar.getAttribute('aria-label')) ?? '').split(':')[0];
  await bar.click();
  const drawer = page.getByRole('dialog');
  await expect(drawer).toContainText(category);
  await expect(drawer.getByRole('table')).toBeVisible({ timeout: 15_000 });
  // Its decisions, one row each under the header.
  await expect(drawer.getByRole('row').nth(1)).toBeVisible();
});

/**
 * The weekly SASE report: its PDF (made on the server) holds what the screen shows, read back with pdftotext;
 * then it is scheduled weekly to an outside address, which confirms the link it is mailed first, and "send now"
 * mails it the report with the PDF attached.
 */
test('the weekly SASE report downloads as a PDF that says what the screen says, and is mailed weekly', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await signIn(page, 'admin@acme.example');
  await page.goto('/reports/weekly-sase-insights');
  await expect(page.getByRole('heading', { name: 'Weekly SASE insights' })).toBeVisible();
  const requests = page.getByRole('region', { name: 'Requests', exact: true }).locator('p').first();
  await expect(requests).toHaveText(/^\d[\d,]*$/);
  const shown = await requests.innerText();
  expect(Number(shown.replaceAll(',', ''))).toBeGreaterThan(0);

  const dir = mkdtempSync(join(tmpdir(), 'palisade-e2e-report-'));
  try {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    const file = join(dir, 'weekly.pdf');
    await download.saveAs(file);
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Weekly SASE insights');
    expect(text).toContain('Requests');
    expect(text).toContain(shown);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const to = `weekly-${Date.now().toString(36)}@acme.example`;
  await page.getByRole('button', { name: 'Schedule weekly mailing' }).click();
  const dialog = page.getByRole('dialog', { name: 'Schedule weekly mailing' });
  const recipients = dialog.getByRole('combobox', { name: 'Recipients' });
  await recipients.fill(to);
  await recipients.press('Enter');
  await dialog.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.getByText('The weekly mailing was saved.')).toBeVisible();
  const mailing = page.getByRole('row').filter({ hasText: to });
  await expect(mailing).toBeVisible();
  // An address outside the workspace gets nothing but a confirmation link until it confirms.
  await expect(mailing).toContainText('Waiting for confirmation');
  const [link] = await readOutbox(request, to);
  expect(link.subject).toContain('Confirm your address for Palisade reports');
  expect(link.attachments ?? []).toEqual([]);
  const token = /\/verify\/report-recipient\/([A-Za-z0-9_-]+)/.exec(link.text)?.[1];
  expect(token, 'a confirmation link in the mail').toBeTruthy();
  await page.goto(`/verify/report-recipient/${token}`);
  await page.getByRole('button', { name: 'Confirm and receive the reports' }).click();
  await expect(page.getByText('Address confirmed')).toBeVisible();

  await page.goto('/reports/weekly-sase-insights');
  await expect(mailing).toContainText('Confirmed');
  await mailing.getByRole('button', { name: /^Send now/ }).click();
  await expect(page.getByText('The report was mailed to 1 recipient.')).toBeVisible();
  const [mail] = await readOutbox(request, to);
  expect(mail.subject).toContain('Weekly SASE insights');
  expect(mail.attachments).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
  expect(mail.attachments?.[0].size).toBeGreaterThan(1000);
});
