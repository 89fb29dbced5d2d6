import { type ApiToken, tokenEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
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

/** A fake tokens API that keeps its list. */
function fakeTokensApi(initial: ApiToken[]) {
  let tokens = [...initial];
  const api = fakeApi()
    .on(tokenEndpoints.listTokens, () => ({ items: tokens, total: tokens.length }))
    .on(tokenEndpoints.createToken, ({ body }) => {
      const created = makeToken({
        id: '99999999-9999-4999-8999-999999999999',
        name: body.name,
        prefix: SECRET.slice(0, 8),
        permissions: body.permissions ?? ['users:view', 'groups:view', 'tenant:view'],
        isReadOnly: body.isReadOnly,
      });
      tokens = [created, ...tokens];
      return { ...created, secret: SECRET };
    })
    .on(tokenEndpoints.revokeToken, ({ params }) => {
      tokens = tokens.map((t) => (t.id === params.id ? { ...t, revokedAt: '2026-03-02T10:00:00.000Z' } : t));
      return tokens.find((t) => t.id === params.id) ?? apiError('not_found');
    });
  return api;
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
    const api = fakeTokensApi([DEPLOY, OLD]);
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
    expect(api.unhandled).toEqual([]);
  });

  it('is not shown to an end user', async () => {
    const api = fakeTokensApi([DEPLOY]);
    renderWithProviders(<ApiTokensPanel />, { session: makeSession({ usertype: 0, role: 'user' }) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByText('API tokens')).not.toBeInTheDocument();
    expect(api.requests).toEqual([]);
  });

  it('creates a token and shows its secret once, with a warning and a copy button', async () => {
    const api = fakeTokensApi([DEPLOY]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession() });
    await screen.findByText('Deploy bot');

    await user.click(screen.getByRole('button', { name: 'Add token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'CI pipeline');
    await user.click(within(dialog).getByRole('radio', { name: 'Custom permissions' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users: view' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Users: add' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add token' }));

    const secretDialog = await screen.findByRole('dialog', { name: 'Token created' });
    expect(within(secretDialog).getByText(SECRET)).toBeInTheDocument();
    expect(within(secretDialog).getByText(/only time the token is shown/)).toBeInTheDocument();
    expect(within(secretDialog).getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const [post] = api.calls(tokenEndpoints.createToken);
    expect(post.sentBody).toEqual({
      name: 'CI pipeline',
      permissions: ['users:view', 'users:create'],
      isReadOnly: false,
      expiresInDays: 30,
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
    expect(api.calls(tokenEndpoints.createToken)).toHaveLength(1);
    expect(api.unhandled).toEqual([]);
  }, 20_000);

  it('asks for the password again for a token past 30 days, and shows a wrong one on the field', async () => {
    const api = fakeTokensApi([]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Add token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Nightly export');
    expect(within(dialog).queryByLabelText('Your password')).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: 'Expires' }));
    await user.click(await screen.findByRole('option', { name: 'In 365 days', hidden: true }));
    const password = await within(dialog).findByLabelText('Your password');
    await user.click(within(dialog).getByRole('button', { name: 'Add token' }));
    expect(
      await within(dialog).findByText('Enter your password or a code from your authenticator app.'),
    ).toBeInTheDocument();
    expect(api.calls(tokenEndpoints.createToken)).toHaveLength(0);

    api.on(tokenEndpoints.createToken, () =>
      apiError('password_incorrect', {
        details: [{ path: 'body.reauth.password', message: 'validation.passwordIncorrect' }],
      }),
    );
    await user.type(password, 'not-my-password');
    await user.click(within(dialog).getByRole('button', { name: 'Add token' }));
    expect(await within(dialog).findByText('The current password is not correct.')).toBeInTheDocument();
    const [post] = api.calls(tokenEndpoints.createToken);
    expect(post.sentBody).toMatchObject({ expiresInDays: 365, reauth: { password: 'not-my-password' } });
  }, 20_000);

  it('limits the role presets and the matrix to what the administrator holds', async () => {
    const api = fakeTokensApi([]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession({ role: 'helpdesk' }) });
    await user.click(await screen.findByRole('button', { name: 'Add token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add API token' });
    await user.click(within(dialog).getByRole('radio', { name: 'Custom permissions' }));
    expect(within(dialog).getByRole('checkbox', { name: 'Users: add' })).toBeEnabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Users: delete' })).toBeDisabled();
    expect(within(dialog).queryByRole('checkbox', { name: 'Billing: view' })).not.toBeInTheDocument();
    // Read-only disables every action but view.
    await user.click(within(dialog).getByRole('switch', { name: /Read-only/ }));
    expect(within(dialog).getByRole('checkbox', { name: 'Users: add' })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Users: view' })).toBeEnabled();
    expect(api.calls(tokenEndpoints.createToken)).toHaveLength(0);
  }, 15_000);

  it('asks before revoking, and revokes only on confirmation', async () => {
    const api = fakeTokensApi([DEPLOY]);
    const { user } = renderWithProviders(<ApiTokensPanel />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Revoke Deploy bot' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke token?' });
    expect(within(dialog).getByText(/will stop working at once/)).toBeInTheDocument();
    expect(api.calls(tokenEndpoints.revokeToken)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(tokenEndpoints.revokeToken)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke Deploy bot' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Revoke token?' })).getByRole('button', {
        name: 'Revoke',
      }),
    );
    await waitFor(() =>
      expect(api.calls(tokenEndpoints.revokeToken).map((s) => s.url.pathname)).toEqual([
        `/api/me/tokens/${DEPLOY.id}`,
      ]),
    );
    expect(api.requests.filter((s) => s.method !== 'GET')).toHaveLength(1);
    const row = (await screen.findByText('Revoked')).closest('tr')!;
    expect(within(row).getByText('Deploy bot')).toBeInTheDocument();
  }, 15_000);
});
