import { type Tenant, tenantEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeApi, fakeApi } from '../../testing/fake-api';
import { makeSession, renderRoutes } from '../../testing/render';
import { AppShell } from './app-shell';

/** A tenant as `GET /api/subscriber/tenant/:name` answers it (the shell reads the working tenant's look). */
function tenant(name: string, kind: Tenant['kind'], displayName: string): Tenant {
  return {
    id: `t-${name}`,
    name,
    displayName,
    kind,
    parent: kind === 'customer' ? 'northwind' : null,
    themevalue: 'light',
    palette: 'classic',
    primaryColor: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
}

const TENANTS: Record<string, Tenant> = {
  acme: tenant('acme', 'customer', 'Acme Corporation'),
  globex: tenant('globex', 'customer', 'Globex Industries'),
  northwind: tenant('northwind', 'partner', 'Northwind Security Partners'),
};

let api: FakeApi;
beforeEach(() => {
  localStorage.clear();
  api = fakeApi().on(
    tenantEndpoints.getTenant,
    ({ params }) => TENANTS[params.name] ?? apiError('not_found'),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function renderShell() {
  return renderRoutes(
    [{ element: <AppShell />, children: [{ path: '/users/list', element: <h1>Users</h1> }] }],
    { route: '/users/list', session: makeSession() },
  );
}

describe('the navigation toggle', () => {
  it('says what it does, and shows a sidebar, not the cross of a close button', async () => {
    const { user } = renderShell();
    const navigation = screen.getByRole('navigation', { name: 'Main navigation' });
    const hide = screen.getByRole('button', { name: 'Hide navigation' });
    expect(hide).toHaveAttribute('aria-expanded', 'true');
    expect(hide).toHaveAttribute('aria-controls', navigation.id);
    // Mantine's Burger turns into a cross while open; the sidebar glyph stays a sidebar.
    expect(hide.querySelector('[data-icon="sidebar"]')).not.toBeNull();
    expect(hide.querySelector('.mantine-Burger-burger')).toBeNull();

    await user.click(hide);
    const show = screen.getByRole('button', { name: 'Show navigation' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    expect(show.querySelector('[data-icon="sidebar"]')).not.toBeNull();
    expect(api.unhandled).toEqual([]);
  });
});

describe('the tenant switcher', () => {
  const USER = '0f8b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
  const partner = makeSession({
    role: 'partner_admin',
    tenant: 'northwind',
    tenantDisplayName: 'Northwind Security Partners',
    tenantKind: 'partner',
    managedTenants: ['acme', 'globex'],
    managedTenantDisplayNames: { acme: 'Acme Corporation', globex: 'Globex Industries' },
  });

  it("names tenants by display name and leaves a screen of the old tenant's user for the new tenant's list", async () => {
    const { user, router } = renderRoutes(
      [
        {
          element: <AppShell />,
          children: [
            { path: '/users/list', element: <h1>Users</h1> },
            { path: '/users/:id', element: <h1>A user</h1> },
          ],
        },
      ],
      { route: `/users/${USER}`, session: partner },
    );
    const switcher = screen.getByLabelText('Working tenant', { selector: 'input' });
    expect(switcher).toHaveValue('Northwind Security Partners');

    await user.click(switcher);
    expect(await screen.findByRole('option', { name: 'Acme Corporation', hidden: true })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Globex Industries', hidden: true }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/users/list'));
    expect(screen.getByLabelText('Working tenant', { selector: 'input' })).toHaveValue('Globex Industries');
    // The look follows the working tenant.
    await waitFor(() =>
      expect(api.calls(tenantEndpoints.getTenant).map((call) => call.params.name)).toEqual([
        'northwind',
        'globex',
      ]),
    );
    expect(api.unhandled).toEqual([]);
  });
});
