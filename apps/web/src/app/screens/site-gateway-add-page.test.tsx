import { type GatewayInput, gatewayEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeGateway } from '../../features/gateways/testing/gateway-fixtures';
import { fakeApi } from '../../testing/fake-api';
import { makeSession, renderRoutes } from '../../testing/render';
import { Component as SiteGatewayAddPage } from './site-gateway-add-page';

const NEW_ID = '55555555-5555-4555-8555-555555555555';
const TOKEN = 'gwe_Zm9yIHRoZSB0ZXN0IG9ubHkgYW5kIG5vdGhpbmcgZWxzZQ';

function fakeGatewaysApi() {
  const api = fakeApi().on(gatewayEndpoints.createGateway, ({ body }) => ({
    cybernode: makeGateway({
      id: NEW_ID,
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
    created: () => api.calls(gatewayEndpoints.createGateway).map((c) => c.sentBody as GatewayInput),
  };
}

function renderPage(session = makeSession()) {
  return renderRoutes(
    [
      { path: '/devices/new/add', element: <SiteGatewayAddPage /> },
      { path: '/devices/:id', element: <h1>device page</h1> },
    ],
    { route: '/devices/new/add', session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('add a site gateway', { timeout: 20_000 }, () => {
  it('offers the site kinds only, then shows the one-time token, the install command and the device page', async () => {
    const { created } = fakeGatewaysApi();
    const { user, router } = renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a site gateway' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add site gateway' }));
    const form = await screen.findByRole('dialog', { name: 'Add gateway' });

    const kind = within(form).getByRole('combobox', { name: 'Kind' });
    expect(kind).toHaveValue('Site gateway (CGW)');
    await user.click(kind);
    const options = (await screen.findAllByRole('option', { hidden: true })).map(
      (option) => option.textContent,
    );
    expect(options).toEqual(['Site gateway (CGW)', 'Site gateway with router (CGWR)', 'Local gateway (LGW)']);
    await user.click(screen.getByRole('option', { name: 'Site gateway with router (CGWR)', hidden: true }));

    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'Hamburg shop');
    await user.type(within(form).getByRole('textbox', { name: 'Site / location' }), 'Hamburg, Jungfernstieg');
    await user.click(within(form).getByRole('button', { name: 'Add gateway' }));

    const done = await screen.findByRole('dialog', { name: 'Gateway added: enrol it' });
    expect(created()).toEqual([{ name: 'Hamburg shop', kind: 'cgwr', region: 'Hamburg, Jungfernstieg' }]);
    expect(within(done).getByText(TOKEN)).toBeInTheDocument();
    expect(
      within(done).getByText(`npm run gateway -- --server ${window.location.origin} --token ${TOKEN}`),
    ).toBeInTheDocument();
    expect(
      within(done).getByText('“Hamburg shop” is in the device list, waiting for its enrolment.'),
    ).toBeInTheDocument();
    const link = within(done).getByRole('link', { name: 'Open its device page' });
    expect(link).toHaveAttribute('href', `/devices/${NEW_ID}`);
    await user.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/devices/${NEW_ID}`));
  });

  it('explains, without the form, to a role that cannot add gateways', async () => {
    fakeGatewaysApi();
    renderPage(makeSession({ role: 'auditor' }));
    expect(await screen.findByText(/Your role cannot add gateways/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add site gateway' })).not.toBeInTheDocument();
  });
});
