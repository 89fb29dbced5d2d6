import { FEATURE_FLAGS, sessionEndpoints } from '@palisade/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../testing/render';
import { Sidebar } from './sidebar';

function setup(features: (typeof FEATURE_FLAGS)[number][]) {
  const session = makeSession({ features });
  fakeApi().on(sessionEndpoints.getSession, () => session);
  renderWithProviders(
    <Sidebar
      state={{ isOpen: true, isSticky: true, isDisabled: false, menu: 'devices' }}
      isSticky
      dispatch={() => undefined}
      homePath="/"
    />,
    { session, route: '/devices/list' },
  );
  return within(screen.getByRole('navigation', { name: 'Main navigation' }));
}

describe('the sidebar and the working tenant’s features', () => {
  beforeEach(() => localStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('shows the ZTNA firewall while the tenant has it', () => {
    const nav = setup([...FEATURE_FLAGS]);
    expect(nav.getByRole('link', { name: 'ZTNA firewall' })).toBeInTheDocument();
  });

  it('hides the entries of a feature the tenant has off', () => {
    const nav = setup(FEATURE_FLAGS.filter((flag) => flag !== 'ztnaFirewall'));
    expect(nav.queryByRole('link', { name: 'ZTNA firewall' })).not.toBeInTheDocument();
    expect(nav.getByRole('link', { name: 'All devices' })).toBeInTheDocument();
  });
});
