import {
  blockPageEndpoints,
  formatTarget,
  type Session,
  sessionEndpoints,
  type Tenant,
  tenantEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
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
  sessionStorage.clear();
  api = fakeApi()
    .on(tenantEndpoints.getTenant, ({ params }) => TENANTS[params.name] ?? apiError('not_found'))
    // The navigation's badge of access requests waiting for a decision.
    .on(blockPageEndpoints.countAccessRequests, () => ({ pending: 0 }));
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

  /** The server's partner-edit mode: opening a managed tenant sets the target, the own tenant clears it. */
  const openTargetLike = (session: Session) =>
    api.on(sessionEndpoints.openTarget, ({ params, body }) => ({
      ...session,
      target: params.tenant === session.tenant ? null : { tenant: params.tenant, edit: body.edit },
    }));

  it("names tenants by display name and leaves a screen of the old tenant's user for the new tenant's list", async () => {
    openTargetLike(partner);
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

describe('partner-edit mode in the shell', () => {
  const partner = makeSession({
    role: 'partner_admin',
    tenant: 'northwind',
    tenantDisplayName: 'Northwind',
    tenantKind: 'partner',
    managedTenants: ['acme', 'globex'],
    managedTenantDisplayNames: { acme: 'Acme Corporation', globex: 'Globex Industries' },
    target: null,
  });

  function renderPartnerShell() {
    api.on(sessionEndpoints.openTarget, ({ params, body }) => ({
      ...partner,
      target: params.tenant === partner.tenant ? null : { tenant: params.tenant, edit: body.edit },
    }));
    return renderRoutes(
      [{ element: <AppShell />, children: [{ path: '/users/list', element: <h1>Users</h1> }] }],
      { route: '/users/list', session: partner },
    );
  }

  async function pickTenant(user: ReturnType<typeof renderPartnerShell>['user'], name: string) {
    await user.click(screen.getByLabelText('Working tenant', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name, hidden: true }));
  }

  const banner = () => screen.queryByRole('region', { name: 'Partner access' });

  it('opens the chosen tenant in edit mode, says so under the header and stores the target', async () => {
    // Session mode: the app keeps its keys in session storage.
    sessionStorage.setItem('navigation', 'true');
    const { user } = renderPartnerShell();
    expect(banner()).not.toBeInTheDocument();

    await pickTenant(user, 'Acme Corporation');
    const region = await screen.findByRole('region', { name: 'Partner access' });
    expect(within(region).getByRole('status')).toHaveTextContent(
      'Working in Acme Corporation for Northwind — edit mode',
    );
    expect(api.calls(sessionEndpoints.openTarget).map((call) => [call.params, call.sentBody])).toEqual([
      [{ tenant: 'acme' }, { edit: true }],
    ]);
    expect(sessionStorage.getItem('target')).toBe(formatTarget({ tenant: 'acme', edit: true }, 'northwind'));
    expect(sessionStorage.getItem('target')).toBe('tenant:acme,partner:northwind,wsEditAllowed:true,true');
    expect(sessionStorage.getItem('tenant')).toBe('acme');
    expect(api.unhandled).toEqual([]);
  });

  it('switches the mode with the button, then closes the target back in the own tenant', async () => {
    const { user } = renderPartnerShell();
    await pickTenant(user, 'Globex Industries');
    const region = await screen.findByRole('region', { name: 'Partner access' });

    await user.click(within(region).getByRole('button', { name: 'Switch to read-only' }));
    await waitFor(() =>
      expect(within(region).getByRole('status')).toHaveTextContent(
        'Working in Globex Industries for Northwind — read-only',
      ),
    );
    expect(api.calls(sessionEndpoints.openTarget).at(-1)).toMatchObject({
      params: { tenant: 'globex' },
      sentBody: { edit: false },
    });
    expect(localStorage.getItem('target')).toBe(formatTarget({ tenant: 'globex', edit: false }, 'northwind'));
    // The working tenant stays.
    expect(screen.getByLabelText('Working tenant', { selector: 'input' })).toHaveValue('Globex Industries');

    // The button keeps the focus and now offers the other mode.
    const toEdit = within(region).getByRole('button', { name: 'Switch to edit mode' });
    expect(toEdit).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(within(region).getByRole('status')).toHaveTextContent(
        'Working in Globex Industries for Northwind — edit mode',
      ),
    );
    expect(api.calls(sessionEndpoints.openTarget).at(-1)?.sentBody).toEqual({ edit: true });

    await pickTenant(user, 'Northwind');
    await waitFor(() => expect(banner()).not.toBeInTheDocument());
    expect(api.calls(sessionEndpoints.openTarget).at(-1)?.params).toEqual({ tenant: 'northwind' });
    expect(localStorage.getItem('target')).toBeNull();
    expect(localStorage.getItem('tenant')).toBe('northwind');
    expect(api.unhandled).toEqual([]);
  });

  it('stays in the tenant it was in when the server refuses to open the other', async () => {
    const { user } = renderPartnerShell();
    api.on(sessionEndpoints.openTarget, () => apiError('forbidden'));
    await pickTenant(user, 'Acme Corporation');
    await waitFor(() => expect(api.calls(sessionEndpoints.openTarget)).toHaveLength(1));
    expect(screen.getByLabelText('Working tenant', { selector: 'input' })).toHaveValue('Northwind');
    expect(banner()).not.toBeInTheDocument();
    expect(localStorage.getItem('tenant')).toBe('northwind');
    expect(localStorage.getItem('target')).toBeNull();
  });

  it("shows no band for a customer tenant's own administrators", () => {
    renderShell();
    expect(banner()).not.toBeInTheDocument();
  });
});
