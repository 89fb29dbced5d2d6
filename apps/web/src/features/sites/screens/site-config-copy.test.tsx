import { gatewayEndpoints, type SiteConfigView, siteConfigEndpoints } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { BERLIN_ID, BERLIN_VIEW, MUNICH_ID, SITE_GATEWAYS_PAGE } from '../testing/site-fixtures';
import { Component as SiteConfigCopy } from './site-config-copy';

const POPOVER = { hidden: true };

/** The fake API: Berlin's configuration, the tenant's site gateways, and saving to any of them. */
function fakeCopyApi() {
  const saved = new Map<string, SiteConfigView>();
  return fakeApi()
    .on(siteConfigEndpoints.getSiteConfig, ({ params }) =>
      params.id === BERLIN_ID ? BERLIN_VIEW : apiError('not_found'),
    )
    .on(gatewayEndpoints.listGateways, () => SITE_GATEWAYS_PAGE)
    .on(siteConfigEndpoints.putSiteConfig, ({ params, body }) => {
      const gateway = SITE_GATEWAYS_PAGE.items.find((item) => item.id === params.id);
      if (!gateway) return apiError('not_found');
      const view: SiteConfigView = {
        ...body,
        gatewayId: gateway.id,
        kind: 'cgw',
        name: gateway.name,
        status: gateway.status,
        updatedAt: '2026-03-02T10:00:00.000Z',
        currentVersion: 'd4e5f60718293041.0badf00d',
        appliedVersion: null,
        isApplied: false,
      };
      saved.set(gateway.id, view);
      return view;
    });
}

function DevicePage() {
  return <h1>Device page of {useParams().id}</h1>;
}

function renderCopy(path: string, session = makeSession()) {
  return renderRoutes(
    [
      { path: '/device/:id/:type', element: <SiteConfigCopy /> },
      { path: '/devices/:id', element: <DevicePage /> },
    ],
    { route: path, session },
  );
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('copy a site configuration', { timeout: 30_000 }, () => {
  it('saves the configuration to the chosen site gateway, then opens its page', async () => {
    const api = fakeCopyApi();
    const { user } = renderCopy(`/device/${BERLIN_ID}/copy`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Copy site configuration' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText('Copies the configuration of “Berlin office” to another site gateway.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'The static WAN address is copied as it is. Change it on the target when the target has its own.',
      ),
    ).toBeInTheDocument();
    const copy = screen.getByRole('button', { name: 'Copy configuration' });
    expect(copy).toBeDisabled();

    // Only the other site gateways that are not retired are offered.
    const target = await screen.findByRole('combobox', { name: /^Target site gateway/ });
    await user.click(target);
    expect(
      await screen.findByRole('option', { name: 'Munich shop · Munich', ...POPOVER }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Berlin office/, ...POPOVER })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /Hamburg depot/, ...POPOVER })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Munich shop · Munich', ...POPOVER }));
    expect(api.calls(gatewayEndpoints.listGateways)[0].query).toMatchObject({ kind: 'site' });

    await user.click(copy);
    const dialog = await screen.findByRole('dialog', { name: 'Replace the configuration of “Munich shop”?' });
    expect(api.calls(siteConfigEndpoints.putSiteConfig)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Replace configuration' }));

    expect(
      await screen.findByRole('heading', { level: 1, name: `Device page of ${MUNICH_ID}` }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText('The configuration of “Berlin office” was copied to “Munich shop”.'),
    ).toBeInTheDocument();
    const [put] = api.calls(siteConfigEndpoints.putSiteConfig);
    expect(put.params).toEqual({ tenant: 'acme', id: MUNICH_ID });
    const { lans, vlans, wan, portForwards, trafficFlows } = BERLIN_VIEW;
    expect(put.sentBody).toEqual({ lans, vlans, wan, portForwards, trafficFlows });
    expect(api.unhandled).toEqual([]);
  });

  it('answers another :type with the not-found state, without asking for the configuration', async () => {
    const api = fakeCopyApi();
    renderCopy(`/device/${BERLIN_ID}/move`);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Site gateway not found' }),
    ).toBeInTheDocument();
    await waitFor(() => expect(api.calls(siteConfigEndpoints.getSiteConfig)).toHaveLength(0));
  });

  it('answers an unknown gateway with the not-found state', async () => {
    fakeCopyApi();
    renderCopy('/device/99999999-9999-4999-8999-999999999999/copy');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Site gateway not found' }),
    ).toBeInTheDocument();
  });

  it('is not offered to a role that may not update gateways', async () => {
    const api = fakeCopyApi();
    renderCopy(`/device/${BERLIN_ID}/copy`, makeSession({ role: 'security_analyst' }));
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy configuration' })).not.toBeInTheDocument();
    expect(api.calls(siteConfigEndpoints.getSiteConfig)).toHaveLength(0);
  });
});
