import {
  FEATURE_DEFAULTS,
  FEATURE_FLAGS,
  type ManagedTenant,
  sessionEndpoints,
  tenantFeatureEndpoints,
} from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { TenantFeaturesModal } from './tenant-features-modal';

const acme: ManagedTenant = {
  id: '5b0d6a3e-6f3f-4a43-9a59-0d1f1b7c1a01',
  name: 'acme',
  displayName: 'Acme Corp',
  kind: 'customer',
  partner: 'northwind',
  status: 'active',
  suspendedAt: null,
  users: 3,
  devices: 2,
  gateways: 1,
  gatewaysOffline: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
} as ManagedTenant;

const partner = makeSession({
  role: 'partner_admin',
  tenant: 'northwind',
  tenantKind: 'partner',
  managedTenants: ['acme'],
});

// What an Essentials subscription pays for: no ZTNA firewall, no XDR.
const entitled = FEATURE_FLAGS.filter((flag) => flag !== 'ztnaFirewall' && flag !== 'xdr');

function setup(canEdit = true) {
  let features = { ...FEATURE_DEFAULTS, analyticsDashboard: false };
  const onClose = vi.fn();
  const api = fakeApi()
    .on(sessionEndpoints.getSession, () => partner)
    .on(tenantFeatureEndpoints.getManagedTenantFeatures, ({ params }) => ({
      tenant: params.id === acme.id ? 'acme' : 'other',
      features,
      entitled,
      isCustomised: false,
      updatedAt: null,
    }))
    .on(tenantFeatureEndpoints.updateManagedTenantFeatures, ({ body }) => {
      features = { ...features, ...body.features };
      return {
        tenant: 'acme',
        features,
        entitled,
        isCustomised: true,
        updatedAt: '2026-02-01T00:00:00.000Z',
      };
    });
  const view = renderWithProviders(
    <TenantFeaturesModal target={acme} tenant="northwind" canEdit={canEdit} onClose={onClose} />,
    { session: partner, route: '/admin-console' },
  );
  return { api, onClose, ...view };
}

describe('the Features dialog of the partner console', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it("shows a translated switch per flag with the tenant's values", async () => {
    setup();
    expect(await screen.findByRole('dialog', { name: 'Features of Acme Corp' })).toBeInTheDocument();
    expect(await screen.findByRole('switch', { name: /^Web filter/ })).toBeChecked();
    expect(screen.getByRole('switch', { name: /^Analytics/ })).not.toBeChecked();
    expect(screen.getByText('The analytics dashboard and the traffic analytics report.')).toBeInTheDocument();
    expect(screen.getAllByRole('switch')).toHaveLength(FEATURE_FLAGS.length);
    expect(screen.getByRole('button', { name: 'Save features' })).toBeDisabled();
  });

  it('shows a flag the subscription does not pay for as off and not to be changed, saying why', async () => {
    setup();
    const firewall = await screen.findByRole('switch', { name: /^ZTNA firewall/ });
    expect(firewall).not.toBeChecked();
    expect(firewall).toBeDisabled();
    expect(screen.getByRole('switch', { name: /^XDR/ })).toBeDisabled();
    expect(screen.getAllByText(/Not in this workspace’s subscription/)).toHaveLength(2);
    expect(screen.getByRole('switch', { name: /^Web filter/ })).toBeEnabled();
  });

  it('saves only the flags that changed, then closes', async () => {
    const { api, user, onClose } = setup();
    await user.click(await screen.findByRole('switch', { name: /^Web filter/ }));
    await user.click(screen.getByRole('switch', { name: /^Analytics/ }));
    await user.click(screen.getByRole('button', { name: 'Save features' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [call] = api.calls(tenantFeatureEndpoints.updateManagedTenantFeatures);
    expect(call.params).toEqual({ tenant: 'northwind', id: acme.id });
    expect(call.sentBody).toEqual({ features: { webFilter: false, analyticsDashboard: true } });
    expect(await screen.findByText('The features of Acme Corp are saved.')).toBeInTheDocument();
  });

  it('only shows the flags to a console user without tenant:update', async () => {
    setup(false);
    expect(await screen.findByRole('switch', { name: /^Web filter/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save features' })).not.toBeInTheDocument();
  });
});
