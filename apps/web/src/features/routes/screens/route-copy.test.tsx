import { gatewayEndpoints, networkEndpoints, policyEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { ALL_ROUTES, BRANCH_RULE, GATEWAYS_PAGE, LAB_RULE } from '../testing/fixtures';
import { Component as RouteCopy } from './route-copy';

function fakeCopyApi() {
  return fakeApi()
    .on(
      networkEndpoints.getRoute,
      ({ params }) => ALL_ROUTES.find((route) => route.ruleId === params.id) ?? apiError('not_found'),
    )
    .on(gatewayEndpoints.listGateways, () => GATEWAYS_PAGE);
}

function renderCopy(path: string, session = makeSession()) {
  return renderRoutes([{ path: '/device/route/:id/:type', element: <RouteCopy /> }], {
    route: path,
    session,
  });
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('copy route', { timeout: 20_000 }, () => {
  it('prefills the add form from the route, its name marked as a copy', async () => {
    const api = fakeCopyApi();
    renderCopy(`/device/route/${BRANCH_RULE}/copy`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Copy route' })).toBeInTheDocument();
    expect(screen.getByText('A new route based on Branch offices.')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Copy of Branch offices');
    expect(screen.getByRole('textbox', { name: /^Destination networks/ })).toHaveValue(
      '10.20.0.0/16\n10.30.0.0/16',
    );
    await waitFor(() => expect(screen.getByRole('combobox', { name: /^Gateway/ })).toHaveValue('HQ Berlin'));
    expect(screen.getByRole('switch', { name: 'Enabled' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Add route' })).toBeInTheDocument();
    expect(api.calls(policyEndpoints.createPolicy)).toHaveLength(0);
    expect(api.unhandled).toEqual([]);
  });

  it('keeps a target no enrolled gateway answers to, saying so', async () => {
    fakeCopyApi();
    renderCopy(`/device/route/${LAB_RULE}/copy`);
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: /^Gateway/ })).toHaveValue(
        'lab-gw (no enrolled gateway answers to it)',
      ),
    );
    expect(screen.getByRole('switch', { name: 'Enabled' })).not.toBeChecked();
  });

  it('answers another :type with the not-found state, without asking for the route', async () => {
    const api = fakeCopyApi();
    renderCopy(`/device/route/${BRANCH_RULE}/move`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Route not found' })).toBeInTheDocument();
    expect(api.calls(networkEndpoints.getRoute)).toHaveLength(0);
  });

  it('is not offered to a role that may not create policies', async () => {
    fakeCopyApi();
    renderCopy(`/device/route/${BRANCH_RULE}/copy`, makeSession({ role: 'security_analyst' }));
    expect(await screen.findByText('Your role does not allow this.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /^Name/ })).not.toBeInTheDocument();
  });
});
