import { type DeploymentKey, enrolmentEndpoints, type Session, userEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { Component as RmmDeployment } from './rmm-deployment';

const DAY = 86_400_000;
const TOKEN = `pdk_${'K3'.repeat(20)}`;
const LAPTOPS = { id: '44444444-4444-4444-8444-444444444444', name: 'Laptops' };
const SALES = { id: '55555555-5555-4555-8555-555555555555', name: 'Sales' };

function makeKey(overrides: Partial<DeploymentKey> & Pick<DeploymentKey, 'id' | 'name'>): DeploymentKey {
  return {
    prefix: 'pdk_Ab3x',
    autoGroups: [],
    expiresAt: new Date(Date.now() + 30 * DAY).toISOString(),
    maxUses: null,
    uses: 0,
    revokedAt: null,
    lastUsedAt: null,
    createdAt: new Date(Date.now() - DAY).toISOString(),
    ...overrides,
  };
}

const INTUNE = makeKey({
  id: '66666666-6666-4666-8666-666666666666',
  name: 'Intune laptops',
  autoGroups: [LAPTOPS],
  uses: 12,
  maxUses: 100,
  lastUsedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
});
const OLD = makeKey({
  id: '77777777-7777-4777-8777-777777777777',
  name: 'Pilot',
  uses: 5,
  maxUses: 5,
});

/** The fake keys API of acme: keeps its list, and offers the auto-groups. */
function fakeKeysApi(initial: DeploymentKey[] = [INTUNE, OLD]) {
  let keys = [...initial];
  const api = fakeApi()
    .on(enrolmentEndpoints.listDeploymentKeys, () => keys)
    .on(userEndpoints.listGroupOptions, () => [LAPTOPS, SALES])
    .on(enrolmentEndpoints.createDeploymentKey, ({ body }) => {
      const key = makeKey({
        id: '88888888-8888-4888-8888-888888888888',
        name: body.name,
        prefix: TOKEN.slice(0, 8),
        autoGroups: [LAPTOPS, SALES].filter((g) => body.autoGroupIds.includes(g.id)),
        maxUses: body.maxUses,
        expiresAt:
          body.expiresInDays === null ? null : new Date(Date.now() + body.expiresInDays * DAY).toISOString(),
      });
      keys = [key, ...keys];
      return { key, token: TOKEN };
    })
    .on(enrolmentEndpoints.revokeDeploymentKey, ({ params }) => {
      const key = keys.find((k) => k.id === params.id);
      if (!key) return apiError('not_found', { message: 'Deployment key not found.' });
      const revoked = { ...key, revokedAt: new Date().toISOString() };
      keys = keys.map((k) => (k.id === params.id ? revoked : k));
      return revoked;
    });
  return {
    api,
    creates: () => api.calls(enrolmentEndpoints.createDeploymentKey),
    revokes: () => api.calls(enrolmentEndpoints.revokeDeploymentKey),
  };
}

function renderScreen(session: Session = makeSession()) {
  return renderRoutes([{ path: '/users/rmm-deployment', element: <RmmDeployment /> }], {
    route: '/users/rmm-deployment',
    session,
  });
}

/** The command of one instructions tab. */
async function commandOf(user: ReturnType<typeof renderScreen>['user'], tab: string) {
  await user.click(screen.getByRole('tab', { name: tab }));
  const panel = screen.getByRole('tabpanel', { name: tab });
  return panel.querySelector('pre')?.textContent ?? '';
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RMM deployment', () => {
  it('lists the keys with prefix, auto-groups, uses, last use and status', async () => {
    const api = fakeKeysApi();
    renderScreen();
    const intune = (await screen.findByText('Intune laptops')).closest('tr')!;
    expect(within(intune).getByText('pdk_Ab3x…')).toBeInTheDocument();
    expect(within(intune).getByText('Laptops')).toBeInTheDocument();
    expect(within(intune).getByText('12 / 100')).toBeInTheDocument();
    expect(within(intune).getByText('2 hours ago')).toBeInTheDocument();
    expect(within(intune).getByText('Active')).toBeInTheDocument();
    const pilot = screen.getByText('Pilot').closest('tr')!;
    expect(within(pilot).getByText('Used up')).toBeInTheDocument();
    expect(within(pilot).getByText('Not used yet')).toBeInTheDocument();
    expect(api.api.calls(enrolmentEndpoints.listDeploymentKeys)[0].params.tenant).toBe('acme');
    expect(api.api.unhandled).toEqual([]);
  });

  it('shows the commands with a placeholder, and says so, while no new key is at hand', async () => {
    const api = fakeKeysApi();
    const { user } = renderScreen();
    await screen.findByText('Intune laptops');
    expect(screen.getByText(/The commands show <DEPLOYMENT_KEY> where the key goes/)).toBeInTheDocument();
    expect(await commandOf(user, 'Intune / Windows')).toBe(
      `msiexec /i PalisadeClient.msi /qn ENROLMENT_KEY=<DEPLOYMENT_KEY> SERVER=${window.location.origin}`,
    );
    expect(api.api.unhandled).toEqual([]);
  });

  it('creates a key, shows its token once and fills it into every command', async () => {
    const api = fakeKeysApi();
    const { user } = renderScreen();
    await screen.findByText('Intune laptops');
    await user.click(screen.getByRole('button', { name: 'Add key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add deployment key' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Jamf Macs');
    await user.click(within(dialog).getByRole('combobox', { name: 'Auto-groups' }));
    await user.click(await screen.findByRole('option', { name: 'Sales', hidden: true }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Never expires' }));
    await user.type(within(dialog).getByRole('textbox', { name: /Maximum uses/ }), '250');
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.creates()).toHaveLength(1);
    expect(api.creates()[0].params.tenant).toBe('acme');
    expect(api.creates()[0].sentBody).toEqual({
      name: 'Jamf Macs',
      autoGroupIds: [SALES.id],
      expiresInDays: null,
      maxUses: 250,
    });
    const fresh = screen.getByRole('region', { name: 'Key “Jamf Macs” created: copy it now' });
    expect(within(fresh).getByText(/only time the key is shown/)).toBeInTheDocument();
    await user.click(within(fresh).getByRole('button', { name: 'Copy key' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);

    const origin = window.location.origin;
    expect(screen.queryByText(/<DEPLOYMENT_KEY>/)).not.toBeInTheDocument();
    expect(await commandOf(user, 'Intune / Windows')).toBe(
      `msiexec /i PalisadeClient.msi /qn ENROLMENT_KEY=${TOKEN} SERVER=${origin}`,
    );
    expect(await commandOf(user, 'Jamf / macOS')).toContain(
      `sudo defaults write /Library/Preferences/com.palisade.client EnrolmentKey '${TOKEN}'`,
    );
    expect(await commandOf(user, 'Jamf / macOS')).toContain(
      'sudo installer -pkg PalisadeClient.pkg -target /',
    );
    expect(await commandOf(user, 'Linux')).toBe(
      `curl -fsSL ${origin}/downloads/linux/install.sh | sudo sh -s -- --key '${TOKEN}'`,
    );
    const apiCall = await commandOf(user, 'API call');
    expect(apiCall).toContain(`curl -X POST ${origin}/api/enrol`);
    expect(apiCall).toContain(`"token":"${TOKEN}"`);
    await user.click(screen.getByRole('button', { name: 'Copy API call' }));
    expect(await navigator.clipboard.readText()).toBe(apiCall);

    // The list shows the new key by its prefix; hiding the key brings the placeholder back.
    expect(await screen.findByText('Jamf Macs')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'I have stored it, hide the key' }));
    expect(document.body.textContent).not.toContain(TOKEN);
    expect(screen.getByText(/The commands show <DEPLOYMENT_KEY> where the key goes/)).toBeInTheDocument();
    expect(api.api.unhandled).toEqual([]);
  }, 20_000);

  it('refuses a key without a name and sends nothing', async () => {
    const api = fakeKeysApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Add key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add deployment key' });
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(api.creates()).toHaveLength(0);
    expect(api.api.unhandled).toEqual([]);
  });

  it('revokes a key after confirmation', async () => {
    const api = fakeKeysApi();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Revoke Intune laptops' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke deployment key?' });
    expect(within(dialog).getByText(/Devices it already enrolled stay/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.revokes()).toHaveLength(1));
    expect(api.revokes()[0].params).toEqual({ tenant: 'acme', id: INTUNE.id });
    const row = (await screen.findByText('Revoked')).closest('tr')!;
    expect(within(row).getByText('Intune laptops')).toBeInTheDocument();
    expect(api.api.unhandled).toEqual([]);
  });

  it('hides create and revoke from a read-only role', async () => {
    const api = fakeKeysApi();
    renderScreen(makeSession({ role: 'auditor' }));
    await screen.findByText('Intune laptops');
    expect(screen.queryByRole('button', { name: 'Add key' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(api.api.unhandled).toEqual([]);
  });
});
