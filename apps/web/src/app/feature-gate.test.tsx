import {
  CONFIG_FLAGS,
  FEATURE_FLAGS,
  type FeatureFlag,
  sessionEndpoints,
  tenantFeatureEndpoints,
} from '@palisade/contracts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WorkingTenantScope } from '../lib/auth';
import { useConfigFlag, useFeature } from '../lib/tenant-flags';
import { fakeApi } from '../testing/fake-api';
import { makeSession, renderRoutes } from '../testing/render';
import { withFeatureGate } from './feature-gate';

const without = (...off: FeatureFlag[]) => FEATURE_FLAGS.filter((flag) => !off.includes(flag));

function ZtnaScreen() {
  return <h1>ZTNA rules</h1>;
}
function CopyScreen() {
  return <h1>Copy user</h1>;
}

/** The two gated screens as the router mounts them (router.tsx wraps every screen with withFeatureGate). */
function setup(route: string, session = makeSession()) {
  return renderRoutes(
    [
      { path: '/devices/ztna-firewall', Component: withFeatureGate('/devices/ztna-firewall', ZtnaScreen) },
      { path: '/users/:id/:type', Component: withFeatureGate('/users/:id/:type', CopyScreen) },
    ],
    { route, session },
  );
}

function Probe() {
  const ztna = useFeature('ztnaFirewall');
  const copy = useConfigFlag('copyAllowed');
  return <p>{`ztna:${ztna} copy:${copy}`}</p>;
}

describe('screens behind a flag', () => {
  beforeEach(() => {
    localStorage.clear();
    fakeApi().on(sessionEndpoints.getSession, () => makeSession());
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows the screen while the working tenant has its feature', async () => {
    setup('/devices/ztna-firewall');
    expect(await screen.findByRole('heading', { name: 'ZTNA rules' })).toBeInTheDocument();
  });

  it('shows "not included in this workspace" instead of a screen whose feature is off', async () => {
    setup('/devices/ztna-firewall', makeSession({ features: without('ztnaFirewall') }));
    expect(
      await screen.findByRole('heading', { name: 'Not included in this workspace' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/does not include this feature/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'ZTNA rules' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' })).toBeInTheDocument();
  });

  it('closes the copy screens while copying is off in the configuration', async () => {
    setup('/users/u1/copy', makeSession({ configurations: { ...CONFIG_FLAGS, copyAllowed: false } }));
    expect(
      await screen.findByRole('heading', { name: 'Not included in this workspace' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/under Configurations/)).toBeInTheDocument();
  });

  it('reads the flags from the session for the tenant it works in', async () => {
    renderRoutes([{ path: '*', element: <Probe /> }], {
      session: makeSession({
        features: without('ztnaFirewall'),
        configurations: { ...CONFIG_FLAGS, copyAllowed: false },
      }),
    });
    expect(await screen.findByText('ztna:false copy:false')).toBeInTheDocument();
  });

  it("asks the server for the flags of a tenant shown without being opened (a partner's customer)", async () => {
    const api = fakeApi()
      .on(sessionEndpoints.getSession, () => makeSession())
      .on(tenantFeatureEndpoints.getTenantFlags, ({ params }) => ({
        tenant: params.tenant,
        features: without('ztnaFirewall'),
        configurations: { ...CONFIG_FLAGS },
      }));
    renderRoutes(
      [
        {
          path: '*',
          element: (
            <WorkingTenantScope tenant="globex">
              <Probe />
            </WorkingTenantScope>
          ),
        },
      ],
      {
        session: makeSession({
          role: 'partner_admin',
          tenant: 'northwind',
          tenantKind: 'partner',
          managedTenants: ['globex'],
        }),
      },
    );
    expect(await screen.findByText('ztna:false copy:true')).toBeInTheDocument();
    expect(api.calls(tenantFeatureEndpoints.getTenantFlags)[0].params).toEqual({ tenant: 'globex' });
  });
});
