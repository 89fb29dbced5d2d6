import { bundleEndpoints, gatewayEndpoints, type Session } from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi, keysetPage } from '../../../testing/fake-api';
import { makeSession, renderRoutes } from '../../../testing/render';
import { gatewaysKeys } from '../api/gateways-keys';
import { Component as GatewaysList } from '../screens/gateways-list';
import {
  CURRENT_BUNDLE,
  FRANKFURT,
  OLDER_BUNDLE,
  OLDER_BUNDLE_DIFF,
  OLDEST_BUNDLE,
} from '../testing/gateway-fixtures';

/** The fake API of the bundle history: three kept versions; pushing one back makes it current and pinned. */
function fakeBundlesApi() {
  let bundles = [CURRENT_BUNDLE, OLDER_BUNDLE, OLDEST_BUNDLE];
  return fakeApi()
    .on(gatewayEndpoints.listGateways, () => keysetPage([FRANKFURT]))
    .on(bundleEndpoints.listBundles, () => ({ items: bundles }))
    .on(bundleEndpoints.diffBundle, ({ params }) =>
      params.version === OLDER_BUNDLE.version ? OLDER_BUNDLE_DIFF : apiError('not_found'),
    )
    .on(bundleEndpoints.pushBundle, ({ params }) => {
      bundles = bundles.map((bundle) => ({
        ...bundle,
        isCurrent: bundle.version === params.version,
        pinnedAt: bundle.version === params.version ? '2026-03-01T11:00:00.000Z' : bundle.pinnedAt,
      }));
      const pushed = bundles.find((bundle) => bundle.version === params.version);
      return pushed ?? apiError('not_found');
    });
}

/** The gateways list with the bundle history opened from its header. */
async function openBundles(session: Session = makeSession()) {
  const rendered = renderRoutes([{ path: '/cybernodes/list', element: <GatewaysList /> }], {
    route: '/cybernodes/list',
    session,
  });
  await rendered.user.click(await screen.findByRole('button', { name: 'Policy bundles' }));
  const panel = await screen.findByRole('dialog', { name: 'Policy bundles' });
  const table = await within(panel).findByRole('table', { name: 'Kept bundle versions, newest first' });
  return { ...rendered, panel, table };
}

/** The row of a version (its header cell is the version). */
function rowOf(table: HTMLElement, version: string): HTMLElement {
  const row = within(table).getByRole('rowheader', { name: version }).closest('tr');
  if (!row) throw new Error(`No row for ${version}`);
  return row;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('bundle history', () => {
  it('lists the kept versions with created, policy version, current and pinned badges and skipped items', async () => {
    const api = fakeBundlesApi();
    const { table } = await openBundles();
    expect(within(table).getAllByRole('row')).toHaveLength(4);

    const current = rowOf(table, CURRENT_BUNDLE.version);
    expect(current).toHaveAttribute('aria-current', 'true');
    expect(within(current).getByText('Current')).toBeInTheDocument();
    expect(within(current).getByText('12')).toBeInTheDocument();
    expect(within(current).getByText('None')).toBeInTheDocument();
    expect(within(current).queryByRole('button')).not.toBeInTheDocument();

    const older = rowOf(table, OLDER_BUNDLE.version);
    expect(within(older).getByText('2 skipped')).toBeInTheDocument();
    expect(within(older).queryByText('Current')).not.toBeInTheDocument();
    expect(within(older).getByRole('button', { name: 'Compare with current' })).toBeInTheDocument();
    expect(within(older).getByRole('button', { name: 'Push this version back' })).toBeInTheDocument();

    const oldest = rowOf(table, OLDEST_BUNDLE.version);
    expect(within(oldest).getByText('Pinned')).toBeInTheDocument();
    expect(within(oldest).getByText(/^Pushed back/)).toBeInTheDocument();
    expect(
      within(oldest)
        .getAllByRole('time')
        .map((time) => time.getAttribute('datetime')),
    ).toEqual([OLDEST_BUNDLE.createdAt, OLDEST_BUNDLE.pinnedAt]);
    expect(api.unhandled).toEqual([]);
  });

  it('compares a kept version with the current bundle, per artefact', async () => {
    const api = fakeBundlesApi();
    const { user, table, panel } = await openBundles();
    expect(api.calls(bundleEndpoints.diffBundle)).toHaveLength(0);
    await user.click(
      within(rowOf(table, OLDER_BUNDLE.version)).getByRole('button', { name: 'Compare with current' }),
    );

    const comparison = await within(panel).findByRole('region', {
      name: `Version ${OLDER_BUNDLE.version} against the current bundle`,
    });
    const nftables = await within(comparison).findByRole('region', {
      name: 'Changes to nftables (firewall)',
    });
    expect(within(nftables).getByText(/^\+ ip daddr 192\.0\.2\.1 drop/).tagName).toBe('INS');
    expect(within(nftables).getByText(/^- ip daddr 203\.0\.113\.7 drop/).tagName).toBe('DEL');
    expect(within(comparison).getByText('+1 line added')).toBeInTheDocument();
    expect(within(comparison).getByText('−2 lines removed')).toBeInTheDocument();
    const rpz = within(comparison).getByRole('region', { name: 'RPZ (DNS filter)' });
    expect(within(rpz).getByText(/Too many lines changed/)).toBeInTheDocument();
    expect(within(comparison).getByRole('region', { name: 'Squid (web proxy)' })).toHaveTextContent(
      'Unchanged',
    );
    expect(api.calls(bundleEndpoints.diffBundle).map((call) => call.params.version)).toEqual([
      OLDER_BUNDLE.version,
    ]);

    await user.click(within(comparison).getByRole('button', { name: 'Close comparison' }));
    expect(
      within(panel).queryByRole('region', { name: /against the current bundle/ }),
    ).not.toBeInTheDocument();
  });

  it('pushes a version back only after a confirmation, then toasts and refreshes the gateway queries', async () => {
    const api = fakeBundlesApi();
    const { user, table, queryClient } = await openBundles();
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
    await user.click(
      within(rowOf(table, OLDER_BUNDLE.version)).getByRole('button', { name: 'Push this version back' }),
    );
    let dialog = await screen.findByRole('dialog', { name: `Push version ${OLDER_BUNDLE.version} back?` });
    expect(within(dialog).getByText(/stays in force until the policy changes again/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: /^Push version/ })).not.toBeInTheDocument(),
    );
    expect(api.calls(bundleEndpoints.pushBundle)).toHaveLength(0);

    await user.click(
      within(rowOf(table, OLDER_BUNDLE.version)).getByRole('button', { name: 'Push this version back' }),
    );
    dialog = await screen.findByRole('dialog', { name: `Push version ${OLDER_BUNDLE.version} back?` });
    await user.click(within(dialog).getByRole('button', { name: 'Push back to every gateway' }));
    await waitFor(() => expect(api.calls(bundleEndpoints.pushBundle)).toHaveLength(1));
    const [call] = api.calls(bundleEndpoints.pushBundle);
    expect(call.method).toBe('POST');
    expect(call.params).toEqual({ tenant: 'acme', version: OLDER_BUNDLE.version });

    expect(
      await screen.findByText(`Version ${OLDER_BUNDLE.version} pushed back to every gateway.`),
    ).toBeInTheDocument();
    expect(invalidate).toHaveBeenCalledWith({ queryKey: gatewaysKeys.all('acme') });
    // The list, asked again, now marks the pushed version current and pinned.
    await waitFor(() =>
      expect(within(rowOf(table, OLDER_BUNDLE.version)).getByText('Current')).toBeInTheDocument(),
    );
    expect(within(rowOf(table, OLDER_BUNDLE.version)).getByText('Pinned')).toBeInTheDocument();
    expect(
      within(rowOf(table, CURRENT_BUNDLE.version)).getByRole('button', { name: 'Compare with current' }),
    ).toBeInTheDocument();
  });

  it('toasts a failed push and keeps the dialog open', async () => {
    const api = fakeBundlesApi().on(bundleEndpoints.pushBundle, () => apiError('forbidden'));
    const { user, table } = await openBundles();
    await user.click(
      within(rowOf(table, OLDER_BUNDLE.version)).getByRole('button', { name: 'Push this version back' }),
    );
    const dialog = await screen.findByRole('dialog', { name: `Push version ${OLDER_BUNDLE.version} back?` });
    await user.click(within(dialog).getByRole('button', { name: 'Push back to every gateway' }));
    expect(await screen.findByText('The bundle was not pushed back')).toBeInTheDocument();
    expect(api.calls(bundleEndpoints.pushBundle)).toHaveLength(1);
  });

  it('offers the comparison but not the push to a role without gateways:update', async () => {
    const api = fakeBundlesApi();
    const { user, table, panel } = await openBundles(makeSession({ role: 'auditor' }));
    const older = rowOf(table, OLDER_BUNDLE.version);
    expect(within(older).getByRole('button', { name: 'Compare with current' })).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Push this version back' })).not.toBeInTheDocument();
    await user.click(within(older).getByRole('button', { name: 'Compare with current' }));
    const comparison = await within(panel).findByRole('region', { name: /against the current bundle/ });
    await within(comparison).findByRole('region', { name: 'Changes to nftables (firewall)' });
    expect(
      within(comparison).queryByRole('button', { name: 'Push this version back' }),
    ).not.toBeInTheDocument();
    expect(api.calls(bundleEndpoints.pushBundle)).toHaveLength(0);
  });
});
