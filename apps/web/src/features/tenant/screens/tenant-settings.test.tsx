import { sessionEndpoints, type Tenant, tenantEndpoints } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiError, type FakeAnswer, type FakeRequest, fakeApi } from '../../../testing/fake-api';
import { makeSession, renderWithProviders } from '../../../testing/render';
import { Component as TenantSettings } from './tenant-settings';

const tenant: Tenant = {
  id: 't1',
  name: 'acme',
  displayName: 'Acme Corp',
  kind: 'customer',
  parent: 'netpartner',
  themevalue: 'light',
  palette: 'classic',
  primaryColor: null,
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
};

/** The fake API of the tenant settings: the tenant, its primary user, and `save` answering the update. */
function fakeTenantApi(
  save: (
    request: FakeRequest<typeof tenantEndpoints.updateTenant>,
  ) => FakeAnswer<typeof tenantEndpoints.updateTenant>,
) {
  return fakeApi()
    .on(tenantEndpoints.getTenant, ({ params }) => (params.name === 'acme' ? tenant : apiError('not_found')))
    .on(tenantEndpoints.primaryUser, () => ({
      email: 'owner@acme.example',
      username: 'owner@acme.example',
      firstname: 'Olga',
      lastname: 'Owner',
    }))
    .on(tenantEndpoints.updateTenant, save)
    .on(sessionEndpoints.getSession, () => makeSession());
}

function setup() {
  return renderWithProviders(<TenantSettings />, {
    route: '/tenant/acme/settings',
    path: '/tenant/:id/settings',
    session: makeSession(),
  });
}

describe('tenant settings screen', () => {
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('loads the tenant into the form and shows the primary user', async () => {
    const api = fakeTenantApi(() => tenant);
    setup();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the tenant…');
    expect(await screen.findByLabelText(/Display name/)).toHaveValue('Acme Corp');
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(await screen.findByText('Olga Owner')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's field errors on the fields, a failure toast, and keeps the values", async () => {
    fakeTenantApi(() =>
      apiError('validation_failed', {
        message: 'Some fields are not valid.',
        details: [{ path: 'body.displayName', message: 'validation.tenantTaken' }],
      }),
    );
    const { user } = setup();
    const name = await screen.findByLabelText(/Display name/);
    await user.clear(name);
    await user.type(name, 'Acme Holding');
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('This workspace name is taken.')).toBeInTheDocument();
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(await screen.findByText('The tenant settings were not saved.')).toBeInTheDocument();
    expect(screen.getByText('Some fields are not valid.')).toBeInTheDocument();
    expect(name).toHaveValue('Acme Holding');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });

  it('sends the form as the contract body and confirms with a toast', async () => {
    const api = fakeTenantApi(({ body }) => ({ ...tenant, ...body, updatedAt: '2024-02-01T00:00:00.000Z' }));
    const { user } = setup();
    await user.click(await screen.findByRole('radio', { name: 'Modern' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Tenant settings saved.')).toBeInTheDocument();
    const [save] = api.calls(tenantEndpoints.updateTenant);
    expect(save.params).toEqual({ name: 'acme' });
    expect(save.sentBody).toEqual({
      displayName: 'Acme Corp',
      themevalue: 'light',
      palette: 'modern',
      primaryColor: null,
    });
  });

  it('checks the form before sending', async () => {
    const api = fakeTenantApi(() => tenant);
    const { user } = setup();
    const name = await screen.findByLabelText(/Display name/);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    await waitFor(() => expect(api.calls(tenantEndpoints.updateTenant)).toHaveLength(0));
  });

  it('is read-only for a role that may not change the tenant', async () => {
    fakeTenantApi(() => tenant);
    renderWithProviders(<TenantSettings />, {
      route: '/tenant/acme/settings',
      path: '/tenant/:id/settings',
      session: makeSession({ role: 'auditor' }),
    });
    expect(await screen.findByLabelText(/Display name/)).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.getByText('Your role may view these settings but not change them.')).toBeInTheDocument();
  });
});
