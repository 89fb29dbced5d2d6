import {
  blockPageEndpoints,
  formatTarget,
  HOME_PATH,
  type ManagedTenant,
  partnerEndpoints,
  type Session,
  sessionEndpoints,
  type Tenant,
  tenantEndpoints,
} from '@palisade/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppShell } from '../../../app/shell/app-shell';
import { appStorage } from '../../../lib/storage';
import { apiError, type FakeApi, type FakeReply, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderRoutes, renderWithProviders } from '../../../testing/render';
import { Component as AdminConsole } from './admin-console';

const ACME_ID = '11111111-1111-4111-8111-111111111111';
const GLOBEX_ID = '22222222-2222-4222-8222-222222222222';
const NEW_ID = '99999999-9999-4999-8999-999999999999';

function makeTenant(overrides: Partial<ManagedTenant> & Pick<ManagedTenant, 'id' | 'name'>): ManagedTenant {
  return {
    displayName: overrides.name,
    kind: 'customer',
    partner: 'northwind',
    status: 'active',
    suspendedAt: null,
    deletionDueAt: null,
    users: 0,
    devices: 0,
    gateways: 0,
    gatewaysOffline: 0,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const ACME = makeTenant({
  id: ACME_ID,
  name: 'acme',
  displayName: 'Acme Corporation',
  users: 1234,
  devices: 56,
  gateways: 3,
  gatewaysOffline: 1,
  subscription: { plan: 'business', status: 'past_due', trialEndsAt: null },
});
const GLOBEX = makeTenant({
  id: GLOBEX_ID,
  name: 'globex',
  displayName: 'Globex Industries',
  status: 'suspended',
  suspendedAt: '2026-04-01T10:00:00.000Z',
  users: 7,
  devices: 2,
  gateways: 1,
  subscription: { plan: 'trial', status: 'trial', trialEndsAt: '2026-12-06T10:00:00.000Z' },
});

const PARTNER = makeSession({
  role: 'partner_admin',
  tenant: 'northwind',
  tenantDisplayName: 'Northwind Security Partners',
  tenantKind: 'partner',
  managedTenants: ['acme', 'globex'],
  managedTenantDisplayNames: { acme: 'Acme Corporation', globex: 'Globex Industries' },
});
const PLATFORM = makeSession({
  role: 'platform_admin',
  tenant: 'palisade',
  tenantDisplayName: 'Palisade',
  tenantKind: 'platform',
  managedTenants: ['acme', 'globex', 'northwind'],
  managedTenantDisplayNames: {
    acme: 'Acme Corporation',
    globex: 'Globex Industries',
    northwind: 'Northwind',
  },
});

/** A fake partner API that keeps its tenants; `refuseCreate` answers a creation instead of creating. */
function fakePartnerApi(session: Session, refuseCreate?: (name: string) => FakeReply | undefined) {
  let tenants = [ACME, GLOBEX];
  const find = (id: string) => tenants.find((tenant) => tenant.id === id) ?? apiError('not_found');
  return (
    fakeApi()
      .on(sessionEndpoints.getSession, () => session)
      // Partner-edit mode: a managed tenant opens as the target, the own tenant closes it.
      .on(sessionEndpoints.openTarget, ({ params, body }) => ({
        ...session,
        target: params.tenant === session.tenant ? null : { tenant: params.tenant, edit: body.edit },
      }))
      .on(partnerEndpoints.listManagedTenants, ({ query }) => {
        const q = query.q?.toLowerCase();
        const items = tenants.filter(
          (tenant) =>
            (!q || tenant.name.includes(q) || tenant.displayName.toLowerCase().includes(q)) &&
            (!query.status || tenant.status === query.status),
        );
        return { items, total: items.length };
      })
      .on(partnerEndpoints.createManagedTenant, ({ body }) => {
        const refusal = refuseCreate?.(body.name);
        if (refusal) return refusal;
        const created = makeTenant({ id: NEW_ID, name: body.name, displayName: body.displayName });
        tenants = [...tenants, created];
        return created;
      })
      .on(partnerEndpoints.setManagedTenantStatus, ({ params, body }) => {
        tenants = tenants.map((tenant) =>
          tenant.id === params.id
            ? {
                ...tenant,
                status: body.status,
                suspendedAt: body.status === 'suspended' ? '2026-05-01T10:00:00.000Z' : null,
              }
            : tenant,
        );
        return find(params.id);
      })
      .on(partnerEndpoints.deleteManagedTenant, ({ params }) => {
        tenants = tenants.map((tenant) =>
          tenant.id === params.id
            ? { ...tenant, status: 'deletion_scheduled', deletionDueAt: '2026-06-01T10:00:00.000Z' }
            : tenant,
        );
        return find(params.id);
      })
      .on(partnerEndpoints.restoreManagedTenant, ({ params }) => {
        tenants = tenants.map((tenant) =>
          tenant.id === params.id ? { ...tenant, status: 'active', deletionDueAt: null } : tenant,
        );
        return find(params.id);
      })
      .on(partnerEndpoints.moveManagedTenant, ({ params, body }) => {
        tenants = tenants.map((tenant) =>
          tenant.id === params.id ? { ...tenant, partner: body.partner } : tenant,
        );
        return find(params.id);
      })
  );
}

/** What changed on the server: every request but the reads. */
const changes = (api: FakeApi) => api.requests.filter((request) => request.method !== 'GET');

const renderConsole = (session: Session) =>
  renderWithProviders(<AdminConsole />, { session, route: '/admin-console' });

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('partner console', () => {
  it("lists the partner's tenants with their counts and status, without the partner column", async () => {
    const api = fakePartnerApi(PARTNER);
    renderConsole(PARTNER);
    expect(screen.getByRole('heading', { level: 1, name: 'Partner console' })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Managed tenants' });
    const acme = within(table).getByText('Acme Corporation').closest('tr')!;
    expect(within(acme).getByText('acme')).toBeInTheDocument();
    expect(within(acme).getByText('Active')).toBeInTheDocument();
    expect(within(acme).getByText('1,234')).toBeInTheDocument();
    expect(within(acme).getByText('56')).toBeInTheDocument();
    expect(within(acme).getByText('3 (1 offline)')).toBeInTheDocument();
    const globex = within(table).getByText('Globex Industries').closest('tr')!;
    expect(within(globex).getByText('Suspended')).toBeInTheDocument();
    expect(within(globex).getByRole('button', { name: 'Resume Globex Industries' })).toBeInTheDocument();
    // Each row's plan and subscription status; a trial says until when.
    expect(within(acme).getByText('Business')).toBeInTheDocument();
    expect(within(acme).getByText('Payment overdue')).toBeInTheDocument();
    expect(within(globex).getByText('Trial until Dec 6, 2026')).toBeInTheDocument();
    expect(within(table).queryByRole('columnheader', { name: 'Partner' })).not.toBeInTheDocument();
    expect(screen.getByText('2 tenants')).toBeInTheDocument();
    expect(api.calls(partnerEndpoints.listManagedTenants)[0].params).toEqual({ tenant: 'northwind' });
    expect(api.unhandled).toEqual([]);
  });

  it('sends the search as q and the status filter as status', async () => {
    const api = fakePartnerApi(PARTNER);
    const { user } = renderConsole(PARTNER);
    await screen.findByText('Acme Corporation');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'glob');
    await waitFor(() =>
      expect(api.calls(partnerEndpoints.listManagedTenants).at(-1)?.query).toMatchObject({
        q: 'glob',
        offset: 0,
      }),
    );
    await waitFor(() => expect(screen.queryByText('Acme Corporation')).not.toBeInTheDocument());
    expect(screen.getByText('Globex Industries')).toBeInTheDocument();

    await user.clear(screen.getByRole('searchbox', { name: 'Search' }));
    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Active', hidden: true }));
    await waitFor(() =>
      expect(api.calls(partnerEndpoints.listManagedTenants).at(-1)?.query).toMatchObject({
        status: 'active',
      }),
    );
  });

  it('asks before suspending, then sends the PUT and shows the new status', async () => {
    const api = fakePartnerApi(PARTNER);
    const { user } = renderConsole(PARTNER);
    await user.click(await screen.findByRole('button', { name: 'Suspend Acme Corporation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend tenant?' });
    expect(within(dialog).getByText(/cannot sign in/)).toBeInTheDocument();
    expect(changes(api)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(changes(api)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Suspend Acme Corporation' }));
    const again = await screen.findByRole('dialog', { name: 'Suspend tenant?' });
    await user.click(within(again).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(changes(api)[0]).toMatchObject({
      endpoint: partnerEndpoints.setManagedTenantStatus,
      params: { tenant: 'northwind', id: ACME_ID },
      sentBody: { status: 'suspended' },
    });
    expect(await screen.findByText('Acme Corporation is suspended.')).toBeInTheDocument();
    // The list is read again: the row now offers to resume.
    expect(await screen.findByRole('button', { name: 'Resume Acme Corporation' })).toBeInTheDocument();
  });

  it('deletes a tenant only once its name is typed, shows the date, and restores it', async () => {
    const api = fakePartnerApi(PARTNER);
    const { user } = renderConsole(PARTNER);
    await user.click(await screen.findByRole('button', { name: 'Delete Acme Corporation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete tenant?' });
    expect(within(dialog).getByText(/After 30 days/)).toBeInTheDocument();
    const confirm = within(dialog).getByRole('button', { name: 'Delete tenant' });
    expect(confirm).toBeDisabled();
    const field = within(dialog).getByLabelText('Type the tenant name acme to confirm');
    await user.type(field, 'acm');
    expect(confirm).toBeDisabled();
    await user.type(field, 'e');
    expect(confirm).toBeEnabled();
    expect(changes(api)).toHaveLength(0);
    await user.click(confirm);
    await waitFor(() => expect(changes(api)).toHaveLength(1));
    expect(changes(api)[0]).toMatchObject({
      endpoint: partnerEndpoints.deleteManagedTenant,
      params: { tenant: 'northwind', id: ACME_ID },
    });
    expect(await screen.findByText(/will be deleted on/)).toBeInTheDocument();
    // The row says so with the date, and offers a restore instead of a delete or a suspension.
    expect(await screen.findAllByText('Deletion scheduled')).not.toHaveLength(0);
    expect(screen.getByText(/^Deleted on /)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Suspend Acme Corporation' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Restore Acme Corporation' }));
    await waitFor(() => expect(changes(api)).toHaveLength(2));
    expect(changes(api)[1]).toMatchObject({ endpoint: partnerEndpoints.restoreManagedTenant });
    expect(await screen.findByText('Acme Corporation was restored.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Delete Acme Corporation' })).toBeInTheDocument();
  });

  it("creates a tenant: the server's word on a field shows on it, then success closes with a toast", async () => {
    const api = fakePartnerApi(PARTNER, (name) =>
      name === 'acme'
        ? apiError('tenant_exists', {
            message: 'This workspace name is taken.',
            details: [{ path: 'body.name', message: 'validation.tenantTaken' }],
          })
        : undefined,
    );
    const { user } = renderConsole(PARTNER);
    await screen.findByText('Acme Corporation');
    await user.click(screen.getByRole('button', { name: 'Create tenant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create tenant' });
    await user.type(within(dialog).getByRole('textbox', { name: /Display name/ }), 'Acme Again');
    // Typed in capitals, kept as the lowercase slug.
    await user.type(within(dialog).getByRole('textbox', { name: /Tenant name/ }), 'ACME');
    expect(within(dialog).getByRole('textbox', { name: /Tenant name/ })).toHaveValue('acme');
    await user.type(within(dialog).getByRole('textbox', { name: /Owner e-mail/ }), 'owner@initech.example');
    await user.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Olga');
    await user.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'Owner');
    await user.click(within(dialog).getByRole('button', { name: 'Create and invite owner' }));

    expect(await within(dialog).findByText('This workspace name is taken.')).toBeInTheDocument();
    const name = within(dialog).getByRole('textbox', { name: /Tenant name/ });
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(api.calls(partnerEndpoints.createManagedTenant)).toHaveLength(1);

    await user.clear(name);
    await user.type(name, 'initech');
    await user.click(within(dialog).getByRole('button', { name: 'Create and invite owner' }));
    expect(
      await screen.findByText(
        'Acme Again was created. Its owner was invited by e-mail to owner@initech.example.',
      ),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.calls(partnerEndpoints.createManagedTenant).at(-1)?.sentBody).toEqual({
      name: 'initech',
      displayName: 'Acme Again',
      owner: { email: 'owner@initech.example', firstname: 'Olga', lastname: 'Owner' },
    });
    // The list is read again with the new tenant in it.
    expect(await screen.findByText('initech')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows a taken owner e-mail on its field', async () => {
    fakePartnerApi(PARTNER, () =>
      apiError('user_exists', {
        message: 'An account with this e-mail exists.',
        details: [{ path: 'body.owner.email', message: 'validation.emailTaken' }],
      }),
    );
    const { user } = renderConsole(PARTNER);
    await screen.findByText('Acme Corporation');
    await user.click(screen.getByRole('button', { name: 'Create tenant' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create tenant' });
    await user.type(within(dialog).getByRole('textbox', { name: /Display name/ }), 'Initech');
    await user.type(within(dialog).getByRole('textbox', { name: /Tenant name/ }), 'initech');
    await user.type(within(dialog).getByRole('textbox', { name: /Owner e-mail/ }), 'taken@acme.example');
    await user.type(within(dialog).getByRole('textbox', { name: /First name/ }), 'Olga');
    await user.type(within(dialog).getByRole('textbox', { name: /Last name/ }), 'Owner');
    await user.click(within(dialog).getByRole('button', { name: 'Create and invite owner' }));
    expect(
      await within(dialog).findByText('An account with this e-mail already exists.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Owner e-mail/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('offers the move to a platform admin only, with the partner column', async () => {
    const partnerApi = fakePartnerApi(PARTNER);
    const first = renderConsole(PARTNER);
    await screen.findByText('Acme Corporation');
    expect(screen.queryByRole('button', { name: /^Move .* to a partner$/ })).not.toBeInTheDocument();
    expect(partnerApi.unhandled).toEqual([]);
    first.unmount();
    vi.unstubAllGlobals();

    const api = fakePartnerApi(PLATFORM);
    const { user } = renderConsole(PLATFORM);
    const table = await screen.findByRole('table', { name: 'Managed tenants' });
    expect(within(table).getByRole('columnheader', { name: 'Partner' })).toBeInTheDocument();
    expect(api.calls(partnerEndpoints.listManagedTenants)[0].params).toEqual({ tenant: 'palisade' });

    await user.click(screen.getByRole('button', { name: 'Move Acme Corporation to a partner' }));
    const dialog = await screen.findByRole('dialog', { name: 'Move tenant to another partner' });
    await user.type(within(dialog).getByRole('textbox', { name: /Partner name/ }), 'contoso');
    await user.click(within(dialog).getByRole('button', { name: 'Move' }));
    expect(await screen.findByText('Acme Corporation now belongs to contoso.')).toBeInTheDocument();
    expect(changes(api)).toHaveLength(1);
    expect(changes(api)[0]).toMatchObject({
      endpoint: partnerEndpoints.moveManagedTenant,
      params: { tenant: 'palisade', id: ACME_ID },
      sentBody: { partner: 'contoso' },
    });
  });

  it('opens a tenant in edit mode: the console switches into it and shows its dashboard', async () => {
    const api = fakePartnerApi(PARTNER);
    const { user, router } = renderConsole(PARTNER);
    await user.click(await screen.findByRole('button', { name: 'Open Globex Industries' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(HOME_PATH));
    expect(appStorage.get('tenant')).toBe('globex');
    expect(api.calls(sessionEndpoints.openTarget).map((call) => [call.params, call.sentBody])).toEqual([
      [{ tenant: 'globex' }, { edit: true }],
    ]);
    expect(appStorage.get('target')).toBe(formatTarget({ tenant: 'globex', edit: true }, 'northwind'));
  });

  it('opens a tenant read-only, and the shell says so under the header', async () => {
    // The shell reads the working tenant's look.
    const api = fakePartnerApi(PARTNER)
      .on(
        tenantEndpoints.getTenant,
        ({ params }): Tenant => ({
          id: `t-${params.name}`,
          name: params.name,
          displayName: params.name,
          kind: params.name === 'northwind' ? 'partner' : 'customer',
          parent: params.name === 'northwind' ? null : 'northwind',
          themevalue: 'light',
          palette: 'classic',
          primaryColor: null,
          createdAt: '2026-01-01T00:00:00.000Z',
          updatedAt: '2026-01-01T00:00:00.000Z',
        }),
      )
      // The navigation's badge of access requests waiting for a decision.
      .on(blockPageEndpoints.countAccessRequests, () => ({ pending: 0 }));
    const { user, router } = renderRoutes(
      [
        {
          element: <AppShell />,
          children: [
            { path: '/admin-console', element: <AdminConsole /> },
            { path: HOME_PATH, element: <h1>Dashboard</h1> },
          ],
        },
      ],
      { route: '/admin-console', session: PARTNER },
    );
    expect(screen.queryByRole('region', { name: 'Partner access' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Open Acme Corporation read-only' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(HOME_PATH));
    expect(api.calls(sessionEndpoints.openTarget).map((call) => [call.params, call.sentBody])).toEqual([
      [{ tenant: 'acme' }, { edit: false }],
    ]);
    const region = screen.getByRole('region', { name: 'Partner access' });
    expect(within(region).getByRole('status')).toHaveTextContent(
      'Working in Acme Corporation for Northwind Security Partners — read-only',
    );
    expect(within(region).getByRole('button', { name: 'Switch to edit mode' })).toBeInTheDocument();
    expect(appStorage.get('tenant')).toBe('acme');
    expect(appStorage.get('target')).toBe('tenant:acme,partner:northwind,wsEditAllowed:true,false');
    expect(api.unhandled).toEqual([]);
  });

  it('stays on the console when the server refuses to open the tenant', async () => {
    const api = fakePartnerApi(PARTNER).on(sessionEndpoints.openTarget, () => apiError('forbidden'));
    const { user, router } = renderConsole(PARTNER);
    await user.click(await screen.findByRole('button', { name: 'Open Globex Industries read-only' }));
    await waitFor(() => expect(api.calls(sessionEndpoints.openTarget)).toHaveLength(1));
    expect(router.state.location.pathname).toBe('/admin-console');
    expect(appStorage.get('tenant')).toBe('northwind');
    expect(appStorage.get('target')).toBeNull();
  });

  it('tells other roles the console is not theirs, and asks the server nothing', async () => {
    const api = fakePartnerApi(makeSession());
    renderConsole(makeSession());
    expect(
      screen.getByText('The partner console is for partner and platform administrators.'),
    ).toBeInTheDocument();
    expect(api.calls(partnerEndpoints.listManagedTenants)).toHaveLength(0);
  });
});
