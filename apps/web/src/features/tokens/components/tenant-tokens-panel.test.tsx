import { type TenantApiToken, tokenEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { TenantTokensPanel } from './tenant-tokens-panel';

function makeToken(
  overrides: Partial<TenantApiToken> & Pick<TenantApiToken, 'id' | 'name' | 'owner'>,
): TenantApiToken {
  return {
    prefix: 'pal_Ab3x',
    permissions: ['users:view', 'groups:view'],
    isReadOnly: false,
    expiresAt: '2030-06-01T00:00:00.000Z',
    lastUsedAt: null,
    lastUsedIp: null,
    revokedAt: null,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const ADA = { id: '11111111-1111-4111-8111-111111111111', username: 'admin@acme.example' };
const HAL = { id: '22222222-2222-4222-8222-222222222222', username: 'help@acme.example' };

const DEPLOY = makeToken({
  id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa',
  name: 'Deploy bot',
  owner: HAL,
  lastUsedAt: '2026-03-01T12:00:00.000Z',
  lastUsedIp: '203.0.113.7',
});
const REPORTS = makeToken({
  id: 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb',
  name: 'Reports',
  owner: ADA,
  isReadOnly: true,
  permissions: ['events:view'],
});
const OLD = makeToken({
  id: 'cccccccc-cccc-4ccc-8ccc-cccccccccccc',
  name: 'Old script',
  owner: HAL,
  revokedAt: '2026-02-01T00:00:00.000Z',
});

/** A fake tenant tokens API that keeps its list and filters `active=true` as the server does. */
function fakeTokensApi(initial: TenantApiToken[]) {
  let tokens = [...initial];
  const api = fakeApi()
    .on(tokenEndpoints.listTenantTokens, ({ query }) => {
      const items = query.active === 'true' ? tokens.filter((t) => !t.revokedAt) : tokens;
      return { items, total: items.length };
    })
    .on(tokenEndpoints.revokeTenantToken, ({ params }) => {
      tokens = tokens.map((t) => (t.id === params.id ? { ...t, revokedAt: '2026-03-02T10:00:00.000Z' } : t));
      return tokens.find((t) => t.id === params.id) ?? apiError('not_found');
    });
  return {
    api,
    lists: () =>
      api.calls(tokenEndpoints.listTenantTokens).map((call) => ({ search: call.url.searchParams })),
    revokes: () => api.calls(tokenEndpoints.revokeTenantToken),
  };
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("administrators' API tokens panel", () => {
  it('lists every administrator’s tokens with their owner, permissions, last use and status', async () => {
    const { api } = fakeTokensApi([DEPLOY, REPORTS]);
    renderWithProviders(<TenantTokensPanel />, { session: makeSession() });
    const deploy = (await screen.findByText('Deploy bot')).closest('tr')!;
    expect(within(deploy).getByText('help@acme.example')).toBeInTheDocument();
    expect(within(deploy).getByText('pal_Ab3x…')).toBeInTheDocument();
    expect(within(deploy).getByText('Users: view · Groups: view')).toBeInTheDocument();
    expect(within(deploy).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(deploy).getByText('Active')).toBeInTheDocument();
    const reports = screen.getByText('Reports').closest('tr')!;
    expect(within(reports).getByText('admin@acme.example')).toBeInTheDocument();
    expect(within(reports).getByText('Read-only')).toBeInTheDocument();
    expect(within(reports).getByText('Not used yet')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('asks for active tokens only by default, and for all of them once the filter is off', async () => {
    const api = fakeTokensApi([DEPLOY, OLD]);
    const { user } = renderWithProviders(<TenantTokensPanel />, { session: makeSession() });
    await screen.findByText('Deploy bot');
    expect(api.lists()[0].search.get('active')).toBe('true');
    expect(api.lists()[0].search.get('offset')).toBe('0');
    expect(screen.queryByText('Old script')).not.toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Active tokens only' }));
    const old = (await screen.findByText('Old script')).closest('tr')!;
    expect(within(old).getByText('Revoked')).toBeInTheDocument();
    expect(within(old).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(api.lists().at(-1)?.search.has('active')).toBe(false);
  });

  it('revokes after the same confirmation as one’s own tokens, and shows the row as revoked', async () => {
    const api = fakeTokensApi([DEPLOY, REPORTS]);
    const { user } = renderWithProviders(<TenantTokensPanel />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Revoke Deploy bot of help@acme.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token?' });
    // The dialog fades in: visible once its transition has run.
    await waitFor(() =>
      expect(
        within(dialog).getByText(/“Deploy bot” of help@acme.example will stop working at once/),
      ).toBeVisible(),
    );
    expect(api.revokes()).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() =>
      expect(api.revokes().map((s) => s.url.pathname)).toEqual([`/api/tokens/acme/${DEPLOY.id}`]),
    );
    expect(api.api.requests.filter((s) => s.method !== 'GET')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Still listed under "active only", now marked revoked, so the administrator sees what happened.
    const row = screen.getByText('Deploy bot').closest('tr')!;
    expect(within(row).getByText('Revoked')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
    expect(await screen.findByText('Token revoked')).toBeInTheDocument();
    expect(api.api.unhandled).toEqual([]);
  }, 15_000);

  it('is not shown, and asks nothing, without roles:update', async () => {
    const { api } = fakeTokensApi([DEPLOY]);
    renderWithProviders(<TenantTokensPanel />, { session: makeSession({ role: 'helpdesk' }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText("Administrators' API tokens")).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });
});
