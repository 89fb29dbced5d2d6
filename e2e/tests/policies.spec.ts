import { expect, test } from '@playwright/test';
import { apiSignIn, signIn } from './fixtures';

/**
 * The policy journey of issue 4: block a web category for a group → the simulator shows a member of that group
 * blocked, with the trace → a pinned policy test protects the decision → a save that would break it is refused.
 */
test('block a category for a group, see it in the simulator, pin a test, and have a conflicting save refused', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const groupName = `Interns ${suffix}`;
  const policyName = `No social for interns ${suffix}`;
  const username = `intern-${suffix}@acme.example`;

  // The group and its member exist already (the directory is issue 3's journey).
  await signIn(page, 'admin@acme.example');
  const headers = { 'x-auth-token': await apiSignIn(page, 'admin@acme.example') };
  const group = await page.request.post('/api/groups/acme', { headers, data: { name: groupName } });
  expect(group.status()).toBe(201);
  const user = await page.request.post('/api/subscriber/user/acme', {
    headers,
    data: { username, firstname: 'Ida', lastname: 'Intern', groups: [(await group.json()).id] },
  });
  expect(user.status()).toBe(201);

  // 1. A user policy that blocks the social-networking category.
  await page.goto('/policy/list');
  await page.getByRole('button', { name: 'Add policy' }).click();
  await page.getByRole('menuitem', { name: 'User policy' }).click();
  const editor = page.getByRole('dialog', { name: 'New policy' });
  await editor.getByRole('textbox', { name: 'Name', exact: true }).fill(policyName);
  await editor.getByRole('button', { name: 'Add rule' }).click();
  await editor.getByRole('textbox', { name: 'Rule name' }).fill('Social networks');
  await editor.getByRole('combobox', { name: 'Type', exact: true }).last().click();
  await page.getByRole('option', { name: 'Domains (DNS)' }).click();
  await editor.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Block' }).click();
  await editor.getByRole('combobox', { name: 'Web categories' }).click();
  await page.getByRole('option', { name: 'Social networking' }).click();
  await editor.getByRole('button', { name: 'Save', exact: true }).click();
  // In no policy group yet, it would apply to everyone: the editor asks first.
  const everyone = page.getByRole('dialog', { name: 'Apply to everyone?' });
  await expect(everyone).toContainText('applies to everyone in the tenant');
  await everyone.getByRole('button', { name: 'Save for everyone' }).click();
  await expect(page.getByText(`Policy ${policyName} saved.`)).toBeVisible();
  await page.getByRole('button', { name: 'Close the editor' }).click();

  // 2. …for the interns only: a policy group carries it to the group.
  await page.goto('/policy/policyGroups/new');
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(`Interns bundle ${suffix}`);
  await page.getByRole('combobox', { name: 'Policies' }).click();
  await page.getByRole('option', { name: policyName }).click();
  await page.getByRole('combobox', { name: 'User groups' }).fill(groupName);
  await page.getByRole('option', { name: groupName }).click();
  await page.getByRole('button', { name: 'Add policy group' }).click();
  await expect(page.getByText(`Policy group Interns bundle ${suffix} saved.`)).toBeVisible();

  // 3. The simulator: the intern is blocked from facebook.com, and the trace names the rule.
  await page.goto('/policy/list');
  await page.getByRole('button', { name: 'Test a request' }).click();
  const simulator = page.getByRole('dialog', { name: 'Test a request' });
  await simulator.getByRole('combobox', { name: 'User' }).fill(`intern-${suffix}`);
  await page.getByRole('option', { name: username }).click();
  await simulator.getByRole('textbox', { name: 'Destination' }).fill('https://www.facebook.com/groups');
  await simulator.getByRole('button', { name: 'Decide' }).click();
  await expect(simulator.getByText('Blocked', { exact: true }).first()).toBeVisible();
  await expect(simulator.getByRole('definition').filter({ hasText: policyName }).first()).toContainText(
    'Social networks',
  );
  const trace = simulator.getByRole('region', { name: 'Trace' });
  await expect(
    trace.getByText(/Matched facebook\.com \(Web category: Social networking\): Block/),
  ).toBeVisible();
  await expect(simulator.getByText(groupName).first()).toBeVisible();

  // 4. Pin it as a test.
  await simulator.getByRole('button', { name: 'Pin as test' }).click();
  await simulator
    .getByRole('region', { name: 'Pin as test' })
    .getByRole('button', { name: 'Save', exact: true })
    .click();
  await expect(page.getByText(/pinned\.$/)).toBeVisible();
  await simulator.getByRole('button', { name: 'Close the simulator' }).click();

  // 5. A conflicting save — the rule turned into an allow — is refused and the failing test listed.
  await page.getByRole('link', { name: `Edit ${policyName}` }).click();
  const edit = page.getByRole('dialog', { name: `Edit ${policyName}` });
  await edit
    .getByRole('button', { name: /Show|Edit/ })
    .first()
    .click();
  await edit.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Allow' }).click();
  await edit.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(edit.getByText('Not saved: this change breaks policy tests')).toBeVisible();
  await expect(edit.getByText('expected Blocked, would be Allowed')).toBeVisible();

  // Nothing changed: the saved rule still blocks.
  const policies = await (await page.request.get('/api/policy/acme', { headers })).json();
  const saved = policies.user.find((p: { name: string }) => p.name === policyName);
  const detail = await (await page.request.get(`/api/policy/acme/${saved.id}`, { headers })).json();
  expect(detail.rules.map((r: { action: string }) => r.action)).toEqual(['block']);
});
