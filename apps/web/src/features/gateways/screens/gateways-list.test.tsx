import { type Gateway, type GatewayInput, gatewayEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { gatewaysQueryOptions } from '../api/get-gateways';
import { BERLIN_SITE, FRANKFURT, makeGateway, OWN_NODE } from '../testing/gateway-fixtures';
import { Component as GatewaysList } from './gateways-list';
import { Component as VirtualGateways } from './virtual-gateways';

const TOKEN = 'gwe_Zm9yIHRoZSB0ZXN0IG9ubHkgYW5kIG5vdGhpbmcgZWxzZQ';

type ListAnswer = FakeAnswer<typeof gatewayEndpoints.listGateways>;

/** The fake API of the list: `list` answers the pages; adding answers as the server does. */
function fakeGatewaysApi(list: (query: URLSearchParams) => ListAnswer = () => keysetPage([])) {
  const api = fakeApi()
    .on(gatewayEndpoints.listGateways, ({ url }) => list(url.searchParams))
    .on(gatewayEndpoints.createGateway, ({ body }) => ({
      cybernode: makeGateway({
        id: '55555555-5555-4555-8555-555555555555',
        name: body.name,
        kind: body.kind,
        region: body.region,
        status: 'pending',
        enrolledAt: null,
      }),
      enrolmentToken: { token: TOKEN, expiresAt: '2026-03-02T10:00:00.000Z' },
    }));
  return {
    api,
    lists: () =>
      api.calls(gatewayEndpoints.listGateways).map((call) => Object.fromEntries(call.url.searchParams)),
    created: () => api.calls(gatewayEndpoints.createGateway).map((call) => call.sentBody as GatewayInput),
  };
}

function renderList(session: Session = makeSession(), route = '/cybernodes/list') {
  return renderRoutes(
    [
      { path: '/cybernodes/list', element: <GatewaysList /> },
      { path: '/cybernodes/virtual', element: <VirtualGateways /> },
      { path: '/cybernodes/view', element: <p>gateway view</p> },
    ],
    { route, session },
  );
}

/** Picks `option` of the Mantine select labelled `label` (its dropdown counts as hidden in happy-dom). */
async function choose(user: ReturnType<typeof renderList>['user'], label: string, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option, hidden: true }));
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('gateways list', { timeout: 20_000 }, () => {
  it('lists every gateway with kind, region, status, versions, drift and last seen', async () => {
    const frankfurtNow = { ...FRANKFURT, lastSeenAt: new Date(Date.now() - 3 * 60_000).toISOString() };
    const { api, lists } = fakeGatewaysApi(() => keysetPage([frankfurtNow, BERLIN_SITE, OWN_NODE]));
    renderList();

    const frankfurt = (await screen.findByRole('link', { name: 'Frankfurt 1' })).closest('tr') as HTMLElement;
    expect(screen.getByRole('link', { name: 'Frankfurt 1' })).toHaveAttribute(
      'href',
      `/cybernodes/view?id=${FRANKFURT.id}`,
    );
    expect(within(frankfurt).getByText('Cybernode')).toBeInTheDocument();
    expect(within(frankfurt).getByText('Europe, central (eu-central)')).toBeInTheDocument();
    expect(within(frankfurt).getByText('Online')).toBeInTheDocument();
    expect(within(frankfurt).getByText('1.4.2')).toBeInTheDocument();
    expect(within(frankfurt).getByText('a1b2c3d4e5f60718.0badf00d')).toBeInTheDocument();
    expect(within(frankfurt).getByText('Current')).toBeInTheDocument();
    expect(within(frankfurt).getByText('3 minutes ago')).toBeInTheDocument();

    const berlin = screen.getByRole('link', { name: 'Berlin office' }).closest('tr') as HTMLElement;
    expect(within(berlin).getByText('Site gateway (CGW)')).toBeInTheDocument();
    // A site's own location is shown as it is.
    expect(within(berlin).getAllByText('Berlin office')).toHaveLength(2);
    expect(within(berlin).getByText('Offline')).toBeInTheDocument();
    // Enforced ≠ current: behind, with the status in words, not in colour alone.
    expect(within(berlin).getByText('Behind')).toBeInTheDocument();
    expect(within(berlin).queryByText('Current')).not.toBeInTheDocument();

    const own = screen.getByRole('link', { name: 'Own node' }).closest('tr') as HTMLElement;
    expect(within(own).getByText('Virtual cybernode')).toBeInTheDocument();
    expect(within(own).getByText('Drifting')).toBeInTheDocument();

    expect(screen.getByText('3 gateways')).toBeInTheDocument();
    expect(lists()[0]).toEqual({ limit: '25', offset: '0', sort: 'name', order: 'asc' });
    expect(api.unhandled).toEqual([]);
  });

  it('filters by kind and status on the server, kept in the address', async () => {
    const { lists } = fakeGatewaysApi((query) => {
      if (query.get('kind') === 'site') {
        return keysetPage(query.get('status') === 'online' ? [] : [BERLIN_SITE]);
      }
      return keysetPage([FRANKFURT, BERLIN_SITE]);
    });
    const { user, router } = renderList();
    await screen.findByRole('link', { name: 'Frankfurt 1' });

    await user.click(screen.getByRole('radio', { name: 'Site gateways' }));
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Frankfurt 1' })).not.toBeInTheDocument());
    expect(screen.getByRole('link', { name: 'Berlin office' })).toBeInTheDocument();
    expect(lists().at(-1)).toMatchObject({ kind: 'site', offset: '0' });
    expect(router.state.location.search).toBe('?kind=site');

    await choose(user, 'Status', 'Online');
    expect(await screen.findByText('No gateways match these filters.')).toBeInTheDocument();
    expect(lists().at(-1)).toMatchObject({ kind: 'site', status: 'online' });
    expect(router.state.location.search).toBe('?kind=site&status=online');
  });

  it('sorts on the server by a sortable column', async () => {
    const { lists } = fakeGatewaysApi(() => keysetPage([FRANKFURT]));
    const { user, router } = renderList();
    await screen.findByRole('link', { name: 'Frankfurt 1' });
    await user.click(screen.getByRole('button', { name: /^Last seen/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=lastSeenAt'));
    await waitFor(() => expect(lists().at(-1)).toMatchObject({ sort: 'lastSeenAt', order: 'asc' }));
  });

  it('adds a gateway, then shows its one-time token, expiry and install command with copy buttons', async () => {
    const { created } = fakeGatewaysApi(() => keysetPage([FRANKFURT]));
    const { user } = renderList();
    await user.click(await screen.findByRole('button', { name: 'Add gateway' }));
    const form = await screen.findByRole('dialog', { name: 'Add gateway' });

    // Nothing is sent while the form is incomplete.
    await user.click(within(form).getByRole('button', { name: 'Add gateway' }));
    expect(within(form).getAllByText('This field is required.').length).toBeGreaterThan(0);
    expect(created()).toEqual([]);

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Paris 2');
    await choose(user, 'Region', 'Europe, west (eu-west)');
    await user.click(within(form).getByRole('button', { name: 'Add gateway' }));

    const done = await screen.findByRole('dialog', { name: 'Gateway added: enrol it' });
    expect(created()).toEqual([{ name: 'Paris 2', kind: 'cybernode', region: 'eu-west' }]);
    expect(within(done).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(done).getByText(TOKEN)).toBeInTheDocument();
    expect(within(done).getByText(/^Valid until .*2026/)).toBeInTheDocument();
    const command = `npm run gateway -- --server ${window.location.origin} --token ${TOKEN}`;
    expect(within(done).getByText(command)).toBeInTheDocument();

    await user.click(within(done).getByRole('button', { name: 'Copy command' }));
    expect(await navigator.clipboard.readText()).toBe(command);
    await user.click(within(done).getByRole('button', { name: 'Copy token' }));
    expect(await navigator.clipboard.readText()).toBe(TOKEN);

    // Closed, the token is gone: opening the form again starts empty.
    await user.click(within(done).getByRole('button', { name: 'I have stored it' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Add gateway' }));
    const again = await screen.findByRole('dialog', { name: 'Add gateway' });
    expect(within(again).queryByText(TOKEN)).not.toBeInTheDocument();
    expect(within(again).getByRole('textbox', { name: 'Name' })).toHaveValue('');
  });

  it('asks a site gateway for its location as text, and shows the server’s field problems on the fields', async () => {
    const { api, created } = fakeGatewaysApi(() => keysetPage([]));
    api.on(gatewayEndpoints.createGateway, () =>
      apiError('validation_failed', {
        details: [{ path: 'body.name', message: 'validation.tooLong' }],
      }),
    );
    const { user } = renderList();
    // An empty list offers adding too; the header button is the first.
    await user.click((await screen.findAllByRole('button', { name: 'Add gateway' }))[0]);
    const form = await screen.findByRole('dialog', { name: 'Add gateway' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Hamburg shop');
    await choose(user, 'Kind', 'Local gateway (LGW)');
    expect(within(form).queryByRole('combobox', { name: 'Region' })).not.toBeInTheDocument();
    await user.type(within(form).getByRole('textbox', { name: 'Site / location' }), 'Hamburg, Jungfernstieg');
    await user.click(within(form).getByRole('button', { name: 'Add gateway' }));

    await waitFor(() =>
      expect(created()).toEqual([{ name: 'Hamburg shop', kind: 'lgw', region: 'Hamburg, Jungfernstieg' }]),
    );
    const name = within(form).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(name).toHaveAccessibleDescription('This is too long.'));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    // Still the form, with what was typed; no token.
    expect(screen.getByRole('dialog', { name: 'Add gateway' })).toBeInTheDocument();
    expect(name).toHaveValue('Hamburg shop');
  });

  it('offers no "Add gateway" without gateways:create', async () => {
    fakeGatewaysApi(() => keysetPage([FRANKFURT]));
    renderList(makeSession({ role: 'auditor' }));
    await screen.findByRole('link', { name: 'Frankfurt 1' });
    expect(screen.queryByRole('button', { name: 'Add gateway' })).not.toBeInTheDocument();
  });

  it('refreshes every 5 seconds while the tab is visible, not in a background tab', () => {
    const options = gatewaysQueryOptions('acme', {});
    expect(options.refetchInterval).toBe(5_000);
    expect(options.refetchIntervalInBackground).toBe(false);
  });
});

describe('virtual cybernodes list', { timeout: 20_000 }, () => {
  it('asks for virtual cybernodes only, without a kind filter, and adds one as virtual', async () => {
    const virtual: Gateway = { ...OWN_NODE, isDrifting: false, enforcedVersion: OWN_NODE.currentVersion };
    const { lists, created } = fakeGatewaysApi(() => keysetPage([virtual]));
    const { user } = renderList(makeSession(), '/cybernodes/virtual');
    expect(await screen.findByRole('heading', { name: 'Virtual cybernodes' })).toBeInTheDocument();
    await screen.findByRole('link', { name: 'Own node' });
    expect(lists()[0]).toMatchObject({ kind: 'virtual' });
    expect(screen.queryByRole('radio', { name: 'Site gateways' })).not.toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Kind' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add virtual cybernode' }));
    const form = await screen.findByRole('dialog', { name: 'Add gateway' });
    expect(within(form).getByRole('combobox', { name: 'Kind' })).toHaveValue('Virtual cybernode');
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Own node 2');
    await choose(user, 'Region', 'United States, east (us-east)');
    await user.click(within(form).getByRole('button', { name: 'Add gateway' }));
    await waitFor(() =>
      expect(created()).toEqual([{ name: 'Own node 2', kind: 'virtual', region: 'us-east' }]),
    );
  });
});
