import type { DeploymentKey, Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderRoutes } from '../../../testing/render';
import { fakeApi } from '../testing/fake-api';
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

/** A fake keys API that keeps its list and records what it was sent. */
function stubKeys(initial: DeploymentKey[] = [INTUNE, OLD]) {
  let keys = [...initial];
  return fakeApi(({ method, url, body }) => {
    if (method === 'GET' && url.pathname === '/api/enrolment/acme/keys') return jsonResponse(keys);
    if (method === 'GET' && url.pathname === '/api/groups/acme/options')
      return jsonResponse([LAPTOPS, SALES]);
    if (method === 'POST' && url.pathname === '/api/enrolment/acme/keys') {
      const input = body as { name: string; autoGroupIds: string[]; expiresInDays: number | null };
      const key = makeKey({
        id: '88888888-8888-4888-8888-888888888888',
        name: input.name,
        prefix: TOKEN.slice(0, 8),
        autoGroups: [LAPTOPS, SALES].filter((g) => input.autoGroupIds.includes(g.id)),
        expiresAt:
          input.expiresInDays === null
            ? null
            : new Date(Date.now() + input.expiresInDays * DAY).toISOString(),
      });
      keys = [key, ...keys];
      return jsonResponse({ key, token: TOKEN }, 201);
    }
    const revoke = /^\/api\/enrolment\/acme\/keys\/(.+)$/.exec(url.pathname);
    if (method === 'DELETE' && revoke) {
      keys = keys.map((k) => (k.id === revoke[1] ? { ...k, revokedAt: new Date().toISOString() } : k));
      return jsonResponse(keys.find((k) => k.id === revoke[1]));
    }
    return undefined;
  });
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
    stubKeys();
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
  });

  it('shows the commands with a placeholder, and says so, while no new key is at hand', async () => {
    stubKeys();
    const { user } = renderScreen();
    await screen.findByText('Intune laptops');
    expect(screen.getByText(/The commands show <DEPLOYMENT_KEY> where the key goes/)).toBeInTheDocument();
    expect(await commandOf(user, 'Intune / Windows')).toBe(
      `msiexec /i PalisadeClient.msi /qn ENROLMENT_KEY=<DEPLOYMENT_KEY> SERVER=${window.location.origin}`,
    );
  });

  it('creates a key, shows its token once and fills it into every command', async () => {
    const api = stubKeys();
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
    expect(api.calls('POST', '/api/enrolment/acme/keys')[0].body).toEqual({
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
  }, 20_000);

  it('refuses a key without a name and sends nothing', async () => {
    const api = stubKeys();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Add key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add deployment key' });
    await user.click(within(dialog).getByRole('button', { name: 'Add key' }));
    expect(await within(dialog).findByText('This field is required.')).toBeInTheDocument();
    expect(api.calls('POST', '/api/enrolment/acme/keys')).toHaveLength(0);
  });

  it('revokes a key after confirmation', async () => {
    const api = stubKeys();
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Revoke Intune laptops' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke deployment key?' });
    expect(within(dialog).getByText(/Devices it already enrolled stay/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.calls('DELETE', `/api/enrolment/acme/keys/${INTUNE.id}`)).toHaveLength(1));
    const row = (await screen.findByText('Revoked')).closest('tr')!;
    expect(within(row).getByText('Intune laptops')).toBeInTheDocument();
  });

  it('hides create and revoke from a read-only role', async () => {
    stubKeys();
    renderScreen(makeSession({ role: 'auditor' }));
    await screen.findByText('Intune laptops');
    expect(screen.queryByRole('button', { name: 'Add key' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });
});
