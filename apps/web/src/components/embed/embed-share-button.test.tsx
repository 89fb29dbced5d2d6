import { type CreatedEmbedLink, embedLinkEndpoints, systemEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { embedTarget } from '../../lib/embed-links';
import { apiError, fakeApi } from '../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../testing/render';
import { EmbedShareButton } from './embed-share-button';

const TOKEN = `emb_${'b'.repeat(43)}`;

const config = (dashboardBaseUrl: string | null) => ({
  signOutPartners: [],
  posthogKey: null,
  posthogHost: null,
  dashboardBaseUrl,
});

/** The server's answer to a creation: the link as asked for, with its token. */
function created(body: {
  name: string;
  kinds: CreatedEmbedLink['kinds'];
  expiresInDays: number;
}): CreatedEmbedLink {
  return {
    id: '0a1b2c3d-0000-4000-8000-0000000000e2',
    name: body.name,
    tenant: 'acme',
    kinds: body.kinds,
    userId: null,
    prefix: TOKEN.slice(0, 8),
    createdBy: { id: 'u1', username: 'admin@acme.example' },
    createdAt: new Date().toISOString(),
    expiresAt: new Date(Date.now() + body.expiresInDays * 86_400_000).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    token: TOKEN,
  };
}

describe('the Embed button of a dashboard', () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('makes an embed link for the dashboard (never the session) and shows its addresses once, to copy', async () => {
    const api = fakeApi()
      .on(systemEndpoints.publicConfig, () => config('https://dash.example.com/palisade/'))
      .on(embedLinkEndpoints.createEmbedLink, ({ body }) => created(body));
    const { user } = renderWithProviders(
      <EmbedShareButton
        targets={[
          embedTarget('agentless', { tenant: 'acme' }),
          embedTarget('xdr', { tenant: 'acme', tenantType: 'customer' }),
        ]}
      />,
      { session: makeSession() },
    );
    // Nothing is made until asked.
    expect(api.requests).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Embed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Embed this dashboard' });
    expect(within(dialog).getByText('Opens: Agentless access, XDR')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));

    const agentless = await within(dialog).findByRole('textbox', { name: 'Agentless access' });
    expect(agentless).toHaveValue(`https://dash.example.com/palisade/embed/agentless/acme?token=${TOKEN}`);
    expect(within(dialog).getByRole('textbox', { name: 'XDR' })).toHaveValue(
      `https://dash.example.com/palisade/embed/xdr/acme/customer?token=${TOKEN}`,
    );
    expect(document.body.textContent).not.toContain('test-session');
    const [post] = api.calls(embedLinkEndpoints.createEmbedLink);
    expect(post.params.tenant).toBe('acme');
    expect(post.sentBody).toEqual({
      name: 'Agentless access',
      kinds: ['agentless', 'xdr'],
      userId: null,
      expiresInDays: 30,
    });

    await user.click(within(dialog).getByRole('button', { name: 'Copy the link of XDR' }));
    expect(await navigator.clipboard.readText()).toBe(
      `https://dash.example.com/palisade/embed/xdr/acme/customer?token=${TOKEN}`,
    );
    expect(
      await screen.findByText('Link copied. Whoever has it sees this dashboard until the link ends.'),
    ).toBeInTheDocument();
  });

  it('asks for the password past 30 days and sends it with the link', async () => {
    const api = fakeApi()
      .on(systemEndpoints.publicConfig, () => config(null))
      .on(embedLinkEndpoints.createEmbedLink, ({ body }) => created(body));
    const { user } = renderWithProviders(<EmbedShareButton targets={[embedTarget('global')]} />, {
      session: makeSession(),
    });
    await user.click(screen.getByRole('button', { name: 'Embed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Embed this dashboard' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Expires' }));
    await user.click(await screen.findByRole('option', { name: 'In 365 days', hidden: true }));
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(
      await within(dialog).findByText('Enter your password or a code from your authenticator app.'),
    ).toBeInTheDocument();
    expect(api.calls(embedLinkEndpoints.createEmbedLink)).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Your password'), 'my-password-1');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const link = await within(dialog).findByRole('textbox', { name: 'Global live dashboard' });
    expect(link).toHaveValue(`${window.location.origin}/embed/global?token=${TOKEN}`);
    const [post] = api.calls(embedLinkEndpoints.createEmbedLink);
    expect(post.sentBody).toMatchObject({ expiresInDays: 365, reauth: { password: 'my-password-1' } });
  });

  it('shows what the server refused on its field', async () => {
    fakeApi().on(embedLinkEndpoints.createEmbedLink, () =>
      apiError('validation_failed', {
        details: [
          {
            path: 'body.kinds',
            message: 'validation.permissionNotHeld',
            values: { permissions: 'gateways:view' },
          },
        ],
      }),
    );
    const { user } = renderWithProviders(
      <EmbedShareButton targets={[embedTarget('weekly-site-performance', { tenant: 'acme' })]} />,
      { session: makeSession() },
    );
    await user.click(screen.getByRole('button', { name: 'Embed' }));
    const dialog = await screen.findByRole('dialog', { name: 'Embed this dashboard' });
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await screen.findByText(/gateways:view/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('textbox', { name: 'Weekly site performance' })).toBeNull();
  });
});
