import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { apiSignIn, readOutbox, signIn } from './fixtures';

/** A WireGuard public key as a device makes it (X25519, base64). */
function wireguardPublicKey(): string {
  const { publicKey } = generateKeyPairSync('x25519');
  const jwk = publicKey.export({ format: 'jwk' }) as { x: string };
  return Buffer.from(jwk.x, 'base64url').toString('base64');
}

/**
 * The block page journey of issue 23: an end user's blocked request → the block page (the address squid's
 * deny_info redirects to) → "Request access" → the administrator approves it in the console → the simulator
 * (what the gateways compile) now allows that host for that user, and still blocks it for everyone else.
 */
test('a blocked user asks for access from the block page, the administrator approves, and the next request passes', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const host = `blocked-${suffix}.example`;
  const username = `eve-${suffix}@acme.example`;
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };

  // The set-up an administrator made before: a user with a laptop in the tunnel, and a policy blocking the host.
  const tenant = await (await page.request.get('/api/subscriber/tenant/acme', { headers })).json();
  const user = await page.request.post('/api/subscriber/user/acme', {
    headers,
    data: { username, firstname: 'Eve', lastname: 'Example' },
  });
  expect(user.status()).toBe(201);
  const userId = (await user.json()).id as string;
  const other = await page.request.post('/api/subscriber/user/acme', {
    headers,
    data: { username: `other-${suffix}@acme.example`, firstname: 'Otto', lastname: 'Other' },
  });
  const otherId = (await other.json()).id as string;
  const key = await page.request.post('/api/enrolment/acme/keys', {
    headers,
    data: { name: `Laptops ${suffix}` },
  });
  expect(key.status()).toBe(201);
  const enrolled = await page.request.post('/api/enrol', {
    data: {
      token: (await key.json()).token,
      device: { name: `Eve's laptop ${suffix}`, os: 'linux' },
      username,
      publicKey: wireguardPublicKey(),
    },
  });
  expect(enrolled.status()).toBe(201);
  const client = ((await enrolled.json()).wireguard.address as string).replace('/32', '');
  const policy = await page.request.post('/api/policy/acme', {
    headers,
    data: {
      type: 'other',
      name: `Internal blocklist ${suffix}`,
      rules: [{ name: `Secret rule ${suffix}`, type: 'dmn', action: 'block', url: host }],
    },
  });
  expect(policy.status()).toBe(201);
  const policyId = (await policy.json()).policy.id as string;
  const ruleId = (await (await page.request.get(`/api/policy/acme/${policyId}`, { headers })).json()).rules[0]
    .id as string;
  const decision = async (who: string) => {
    const res = await page.request.post('/api/policy/simulate/acme', {
      headers,
      data: { request: { userId: who, destination: `https://${host}/` } },
    });
    expect(res.status()).toBe(200);
    return (await res.json()).decision as string;
  };
  expect(await decision(userId)).toBe('block');

  // 1. The end user, with no console session, lands where squid's deny_info sends a blocked request.
  const endUser = await browser.newContext({ locale: 'en-US' });
  const blocked = await endUser.newPage();
  const query = new URLSearchParams({ tenant: tenant.id, host, url: `http://${host}/report`, client });
  await blocked.goto(`/blockaccess/domain/${ruleId}?${query}`);
  await expect(blocked.getByRole('heading', { level: 1, name: 'This site is blocked' })).toBeVisible();
  await expect(blocked.getByText('Acme Corporation', { exact: true })).toBeVisible();
  await expect(blocked.getByText(host, { exact: true })).toBeVisible();
  await expect(blocked.getByText('A blocked website')).toBeVisible();
  // Never the tenant's own rule text or policy name.
  await expect(blocked.getByText(`Secret rule ${suffix}`)).toHaveCount(0);
  await expect(blocked.getByText(`Internal blocklist ${suffix}`)).toHaveCount(0);

  // 2. "Request access" with a reason.
  await blocked
    .getByRole('textbox', { name: /Why do you need access/ })
    .fill('The supplier portal for the audit');
  await blocked.getByRole('button', { name: 'Send request' }).click();
  await expect(blocked.getByText('Request sent')).toBeVisible();
  await endUser.close();

  // 3. The administrator sees it (a badge in the navigation) and approves it for an hour.
  await signIn(page, 'admin@acme.example');
  await page.goto('/policy/access-requests');
  await expect(page.getByRole('heading', { level: 1, name: 'Access requests' })).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByLabel(/access requests? waiting/)
      .first(),
  ).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: host });
  await expect(row).toContainText('Eve Example');
  await expect(row).toContainText('The supplier portal for the audit');
  await row.getByRole('button', { name: `Approve access to ${host} for Eve Example` }).click();
  const dialog = page.getByRole('dialog', { name: `Approve access to ${host}` });
  await dialog.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Access approved')).toBeVisible();

  // 4. The next request passes: for Eve, and only for her.
  expect(await decision(userId)).toBe('allow');
  expect(await decision(otherId)).toBe('block');
  const [mail] = await readOutbox(page.request, username);
  expect(mail.subject).toContain('approved');
  expect(mail.text).toContain(host);
});
