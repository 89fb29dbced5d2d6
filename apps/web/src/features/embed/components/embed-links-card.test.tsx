import { type EmbedLink, embedLinkEndpoints, systemEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { EmbedLinksCard } from './embed-links-card';

const TOKEN = `emb_${'c'.repeat(43)}`;
const DAY = 86_400_000;

function link(overrides: Partial<EmbedLink>): EmbedLink {
  return {
    id: '0a1b2c3d-0000-4000-8000-000000000001',
    name: 'Lobby',
    tenant: 'acme',
    kinds: ['tenant', 'global'],
    userId: null,
    prefix: 'emb_Lbby',
    createdBy: { id: 'someone-else', username: 'noc@acme.example' },
    createdAt: new Date(Date.now() - DAY).toISOString(),
    expiresAt: new Date(Date.now() + 7 * DAY).toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    ...overrides,
  };
}

/** The links API over an in-memory list. */
function linksApi(initial: EmbedLink[]) {
  let links = [...initial];
  const api = fakeApi()
    .on(systemEndpoints.publicConfig, () => ({
      signOutPartners: [],
      posthogKey: null,
      posthogHost: null,
      dashboardBaseUrl: null,
    }))
    .on(embedLinkEndpoints.listEmbedLinks, ({ query }) => {
      const items =
        query.active === 'true'
          ? links.filter((l) => !l.revokedAt && Date.parse(l.expiresAt) > Date.now())
          : links;
      return { items, total: items.length };
    })
    .on(embedLinkEndpoints.revokeEmbedLink, ({ params }) => {
      links = links.map((l) => (l.id === params.id ? { ...l, revokedAt: new Date().toISOString() } : l));
      return links.find((l) => l.id === params.id) as EmbedLink;
    })
    .on(embedLinkEndpoints.createEmbedLink, ({ body }) => {
      const made = link({
        id: '0a1b2c3d-0000-4000-8000-000000000009',
        name: body.name,
        kinds: body.kinds,
        createdBy: { id: 'test-user', username: 'admin@acme.example' },
        prefix: TOKEN.slice(0, 8),
      });
      links = [made, ...links];
      return { ...made, token: TOKEN };
    });
  return api;
}

describe('Settings → Embedded dashboards', () => {
  beforeEach(() => localStorage.clear());

  it('lists the tenant’s links with their state, and revokes one after asking', async () => {
    const api = linksApi([
      link({}),
      link({ id: '0a1b2c3d-0000-4000-8000-000000000002', name: 'Old', revokedAt: new Date().toISOString() }),
    ]);
    const { user } = renderWithProviders(<EmbedLinksCard />, { session: makeSession() });
    const table = await screen.findByRole('table', { name: 'Embedded dashboards' });
    expect(await within(table).findByText('Lobby')).toBeInTheDocument();
    expect(within(table).getByText('Tenant dashboard, Global live dashboard')).toBeInTheDocument();
    expect(within(table).getByText('noc@acme.example')).toBeInTheDocument();
    expect(within(table).queryByText('Old')).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Revoke Lobby' }));
    const confirm = await screen.findByRole('dialog', { name: 'Revoke the link?' });
    await user.click(within(confirm).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.calls(embedLinkEndpoints.revokeEmbedLink)).toHaveLength(1));
    expect(api.calls(embedLinkEndpoints.revokeEmbedLink)[0].params.id).toBe(link({}).id);
    expect(await screen.findByText('No active link.')).toBeInTheDocument();
  });

  it('offers no revoke of another administrator’s link without roles:update', async () => {
    linksApi([link({})]);
    renderWithProviders(<EmbedLinksCard />, { session: makeSession({ role: 'auditor' }) });
    const table = await screen.findByRole('table', { name: 'Embedded dashboards' });
    expect(await within(table).findByText('Lobby')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Revoke Lobby' })).toBeNull();
  });

  it('makes a link for the dashboards chosen and shows each one’s address once', async () => {
    const api = linksApi([]);
    const { user } = renderWithProviders(<EmbedLinksCard />, { session: makeSession() });
    await user.click(await screen.findByRole('button', { name: 'Create link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create an embed link' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'NOC wall');
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    expect(await within(dialog).findByText('Choose at least one dashboard.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Secure private access' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Global live dashboard' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create link' }));
    const done = await screen.findByRole('dialog', { name: 'Link created' });
    expect(await within(done).findByRole('textbox', { name: 'Secure private access' })).toHaveValue(
      `${window.location.origin}/embed/spa/acme?token=${TOKEN}`,
    );
    expect(within(done).getByRole('textbox', { name: 'Global live dashboard' })).toHaveValue(
      `${window.location.origin}/embed/global?token=${TOKEN}`,
    );
    expect(api.calls(embedLinkEndpoints.createEmbedLink)[0].sentBody).toMatchObject({
      name: 'NOC wall',
      kinds: ['spa', 'global'],
    });
    await user.click(within(done).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(TOKEN);
    expect(await screen.findByText('NOC wall')).toBeInTheDocument();
  });
});
