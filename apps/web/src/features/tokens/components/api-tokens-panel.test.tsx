import type { ApiToken } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderWithProviders } from '../../../testing/render';
import { ApiTokensPanel } from './api-tokens-panel';

const SECRET = `pal_${'Z9'.repeat(20)}`;

function makeToken(overrides: Partial<ApiToken> & Pick<ApiToken, 'id' | 'name'>): ApiToken {
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

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

/** A fake tokens API that keeps its list, and records what it was sent. */
function stubApi(initial: ApiToken[]) {
  let tokens = [...initial];
  const sent: Sent[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: Request) => {
      const url = new URL(input.url);
      const text = await input.clone().text();
      const body = text ? JSON.parse(text) : undefined;
      sent.push({ method: input.method, path: url.pathname, body });
      if (input.method === 'GET' && url.pathname === '/api/me/tokens') {
        return jsonResponse({ items: tokens, total: tokens.length });
      }
      if (input.method === 'POST' && url.pathname === '/api/me/tokens') {
        const created = makeToken({
          id: '99999999-9999-4999-8999-999999999999',
          name: body.name,
          prefix: SECRET.slice(0, 8),
          permissions: body.permissions ?? ['users:view', 'groups:view', 'tenant:view'],
          isReadOnly: body.isReadOnly,
        });
        tokens = [created, ...tokens];
        return jsonResponse({ ...created, secret: SECRET }, 201);
      }
      const revoke = /^\/api\/me\/tokens\/(.+)$/.exec(url.pathname);
      if (input.method === 'DELETE' && revoke) {
        tokens = tokens.map((t) =>
          t.id === revoke[1] ? { ...t, revokedAt: '2026-03-02T10:00:00.000Z' } : t,
        );
        return jsonResponse(tokens.find((t) => t.id === revoke[1]));
      }
      return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
    }),
  );
  return { sent };
}

const DEPLOY = makeToken({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Deploy bot',
  lastUsedAt: '2026-03-01T12:00:00.000Z',
  lastUsedIp: '203.0.113.7',
});
const OLD = makeToken({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Old script',
  isReadOnly: true,
  revokedAt: '2026-02-01T00:00:00.000Z',
});

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('API tokens panel', () => {
  it('lists the tokens with prefix, permissions, read-only, expiry, last use and status', async () => {
    stubApi([DEPLOY, OLD]);
    renderWithProviders(<ApiTokensPanel />, { session: makeSession() });
    const deploy = (await screen.findByText('Deploy bot')).closest('tr')!;
    expect(within(deploy).getByText('pal_Ab3x…')).toBeInTheDocument();
    expect(within(deploy).getByText('Users: view · Groups: view')).toBeInTheDocument();
    expect(within(deploy).getByText('203.0.113.7')).toBeInTheDocument();
    expect(within(deploy).getByText('Active')).toBeInTheDocument();
    const old = screen.getByText('Old script').closest('tr')!;
    expect(within(old).getByText('Read-only')).toBeInTheDocument();
    expect(within(old).getByText('Revoked')).toBeInTheDocument();
    expect(within(old).getByText('Not used yet')).toBeInTheDocument();
    expect(within(old).queryByRole('button', { name: /Revoke/ })).not.toBeInTheDocument();
  });

  it('is not shown to an end user', async () => {
    const api = stubApi([DEPLOY]);
    renderWithProviders(<ApiTokensPanel />, { session: makeSession({ usertype: 0, role: 'user' }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText('API tokens')).not.toBeInTheDocument();
    expect(api.sent).toEqual([]);
  });

  it('creates a token and shows its secret once, with a warning and a copy button', async () => {
    const api = stubApi([DEPLOY]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession() });
    await screen.findByText('Deploy bot');

    await user.click(screen.getByRole('button', { name: 'Add token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CI pipeline');
    await user.click(within(dialog).getByRole('radio', { name: 'Custom permissions' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users: View' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users: Add' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add token' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Token created' });
    expect(within(secretDialog).getByText(SECRET)).toBeInTheDocument();
    expect(within(secretDialog).getByText(/only time the token is shown/)).toBeInTheDocument();
    expect(within(secretDialog).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const post = api.sent.find((s) => s.method === 'POST');
    expect(post?.body).toEqual({
      name: 'CI pipeline',
      permissions: ['users:view', 'users:create'],
      isReadOnly: false,
      expiresInDays: 90,
    });

    await user.click(within(secretDialog).getByRole('button', { name: 'I have stored it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The list shows the new token by its prefix; the secret is gone for good.
    expect(await screen.findByText('CI pipeline')).toBeInTheDocument();
    expect(screen.queryByText(SECRET)).not.toBeInTheDocument();
    expect(document.body.textContent).not.toContain(SECRET);

    // Opening the dialog again starts afresh, with no secret.
    await user.click(screen.getByRole('button', { name: 'Add token' }));
    const again = await screen.findByRole('dialog', { name: 'Add API token' });
    expect(within(again).getByRole('textbox', { name: /Name/ })).toHaveValue('');
    expect(document.body.textContent).not.toContain(SECRET);
  }, 20_000);

  it('limits the role presets and the matrix to what the administrator holds', async () => {
    stubApi([]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession({ role: 'helpdesk' }) });
    await user.click(await screen.findByRole('button', { name: 'Add token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add API token' });
    await user.click(within(dialog).getByRole('radio', { name: 'Custom permissions' }));
    expect(within(dialog).getByRole('checkbox', { name: 'Users: Add' })).toBeEnabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Users: Delete' })).toBeDisabled();
    expect(within(dialog).queryByRole('checkbox', { name: 'Billing: View' })).not.toBeInTheDocument();
    // Read-only disables every action but view.
    await user.click(within(dialog).getByRole('switch', { name: /Read-only/ }));
    expect(within(dialog).getByRole('checkbox', { name: 'Users: Add' })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Users: View' })).toBeEnabled();
  }, 15_000);

  it('asks before revoking, and revokes only on confirmation', async () => {
    const api = stubApi([DEPLOY]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Revoke Deploy bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token?' });
    expect(within(dialog).getByText(/will stop working at once/)).toBeInTheDocument();
    expect(api.sent.some((s) => s.method === 'DELETE')).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.sent.some((s) => s.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Revoke Deploy bot' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke token?' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    await waitFor(() =>
      expect(api.sent.filter((s) => s.method === 'DELETE').map((s) => s.path)).toEqual([
        `/api/me/tokens/${DEPLOY.id}`,
      ]),
    );
    const row = (await screen.findByText('Revoked')).closest('tr')!;
    expect(within(row).getByText('Deploy bot')).toBeInTheDocument();
  }, 15_000);
});
