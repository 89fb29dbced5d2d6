import type { Tenant } from '@palisade/contracts';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession, renderWithProviders } from '../../../testing/render';
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

const fetchMock = vi.fn<(input: Request) => Promise<Response>>();

function route(request: Request): { method: string; path: string } {
  return { method: request.method, path: new URL(request.url).pathname };
}

function serve(putAnswer: (body: Record<string, unknown>) => Response) {
  fetchMock.mockImplementation(async (request) => {
    const { method, path } = route(request);
    if (method === 'GET' && path === '/api/subscriber/tenant/acme') return jsonResponse(tenant);
    if (method === 'GET' && path === '/api/tenant/primaryuser') {
      return jsonResponse({
        email: 'owner@acme.example',
        username: 'owner@acme.example',
        firstname: 'Olga',
        lastname: 'Owner',
      });
    }
    if (method === 'PUT' && path === '/api/subscriber/tenant/acme') return putAnswer(await request.json());
    if (method === 'GET' && path === '/api/session') return jsonResponse(makeSession());
    return jsonResponse({ errcode: 4, code: 'not_found', message: 'Not found.' }, 404);
  });
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
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('loads the tenant into the form and shows the primary user', async () => {
    serve(() => jsonResponse(tenant));
    setup();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the tenant…');
    expect(await screen.findByLabelText(/Display name/)).toHaveValue('Acme Corp');
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    expect(await screen.findByText('Olga Owner')).toBeInTheDocument();
  });

  it("shows the server's field errors on the fields, a failure toast, and keeps the values", async () => {
    serve(() =>
      jsonResponse(
        {
          errcode: 2,
          code: 'validation_failed',
          message: 'Some fields are not valid.',
          details: [{ path: 'body.displayName', message: 'validation.tenantTaken' }],
        },
        400,
      ),
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
    let sent: Record<string, unknown> | undefined;
    serve((body) => {
      sent = body;
      return jsonResponse({ ...tenant, ...body, updatedAt: '2024-02-01T00:00:00.000Z' });
    });
    const { user } = setup();
    await user.click(await screen.findByRole('radio', { name: 'Modern' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Tenant settings saved.')).toBeInTheDocument();
    expect(sent).toEqual({
      displayName: 'Acme Corp',
      themevalue: 'light',
      palette: 'modern',
      primaryColor: null,
    });
  });

  it('checks the form before sending', async () => {
    serve(() => jsonResponse(tenant));
    const { user } = setup();
    const name = await screen.findByLabelText(/Display name/);
    await user.clear(name);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([r]) => r.method === 'PUT')).toBe(false));
  });

  it('is read-only for a role that may not change the tenant', async () => {
    serve(() => jsonResponse(tenant));
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
